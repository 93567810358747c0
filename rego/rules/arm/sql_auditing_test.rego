package rules.arm_sql_auditing_test

import data.rules.arm_sql_auditing as rule
import rego.v1

server(name) := {"attributes": {"properties": {"administratorLogin": name}}}

setting(server_name, props) := {"attributes": {"_parent_id": sprintf("Microsoft.Sql/servers/%s", [server_name]), "properties": props}}

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Sql/servers": {
			"Microsoft.Sql/servers/kept": server("kept"),
			"Microsoft.Sql/servers/short": server("short"),
			"Microsoft.Sql/servers/off": server("off"),
			"Microsoft.Sql/servers/none": server("none"),
		},
		"Microsoft.Sql/servers/auditingSettings": {
			"Microsoft.Sql/servers/kept/auditingSettings/default": setting("kept", {"state": "Enabled", "retentionDays": 0}),
			"Microsoft.Sql/servers/short/auditingSettings/default": setting("short", {"state": "Enabled", "retentionDays": 30}),
			"Microsoft.Sql/servers/off/auditingSettings/default": setting("off", {"state": "Disabled"}),
		},
	},
}

test_servers_without_lasting_audits_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["Microsoft.Sql/servers/short/auditingSettings/default", "retention"],
		["Microsoft.Sql/servers/off", "auditing"],
		["Microsoft.Sql/servers/none", "auditing"],
	}
	count(rule.resources) == 6 with input as state
}
