package rules.arm_sql_threat_detection_test

import data.rules.arm_sql_threat_detection as rule
import rego.v1

child(server, props) := {"attributes": {"_parent_id": sprintf("Microsoft.Sql/servers/%s", [server]), "properties": props}}

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Sql/servers": {
			"Microsoft.Sql/servers/good": {"attributes": {"properties": {"administratorLogin": "sa"}}},
			"Microsoft.Sql/servers/bad": {"attributes": {"properties": {"administratorLogin": "sa"}}},
		},
		"Microsoft.Sql/servers/securityAlertPolicies": {
			"Microsoft.Sql/servers/good/securityAlertPolicies/Default": child("good", {"state": "Enabled"}),
			"Microsoft.Sql/servers/bad/securityAlertPolicies/Default": child("bad", {"state": "Disabled"}),
		},
	},
}

test_servers_without_the_setting_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.Sql/servers/bad"}
	count(rule.resources) == 2 with input as state
}
