package rules.arm_sql_entra_admin_test

import data.rules.arm_sql_entra_admin as rule
import rego.v1

child(server, props) := {"attributes": {"_parent_id": sprintf("Microsoft.Sql/servers/%s", [server]), "properties": props}}

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Sql/servers": {
			"Microsoft.Sql/servers/good": {"attributes": {"properties": {"administratorLogin": "sa"}}},
			"Microsoft.Sql/servers/bad": {"attributes": {"properties": {"administratorLogin": "sa"}}},
		},
		"Microsoft.Sql/servers/administrators": {"Microsoft.Sql/servers/good/administrators/ActiveDirectory": child("good", {"administratorType": "ActiveDirectory", "login": "dba"})},
	},
}

test_servers_without_the_setting_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.Sql/servers/bad"}
	count(rule.resources) == 2 with input as state
}

test_inline_administrators_pass if {
	inline := {"input_type": "arm", "resources": {"Microsoft.Sql/servers": {"Microsoft.Sql/servers/x": {"attributes": {"properties": {"administrators": {"login": "dba", "sid": "s"}}}}}}}
	count(rule.deny) == 0 with input as inline
}
