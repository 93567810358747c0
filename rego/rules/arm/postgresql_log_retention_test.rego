package rules.arm_postgresql_log_retention_test

import data.rules.arm_postgresql_log_retention as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {"Microsoft.DBforPostgreSQL/servers/configurations": {
		"Microsoft.DBforPostgreSQL/servers/a/configurations/log_retention_days": {"attributes": {"properties": {"value": "7"}}},
		"Microsoft.DBforPostgreSQL/servers/b/configurations/log_retention_days": {"attributes": {"properties": {"value": "3"}}},
	}},
}

test_short_retention_fails if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.DBforPostgreSQL/servers/b/configurations/log_retention_days"}
	count(rule.resources) == 2 with input as state
}
