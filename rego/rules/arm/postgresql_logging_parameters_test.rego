package rules.arm_postgresql_logging_parameters_test

import data.rules.arm_postgresql_logging_parameters as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {"Microsoft.DBforPostgreSQL/servers/configurations": {
		"Microsoft.DBforPostgreSQL/servers/pg/configurations/log_checkpoints": {"attributes": {"properties": {"value": "on", "source": "user-override"}}},
		"Microsoft.DBforPostgreSQL/servers/pg/configurations/log_connections": {"attributes": {"properties": {"value": "OFF"}}},
		"Microsoft.DBforPostgreSQL/servers/pg/configurations/work_mem": {"attributes": {"properties": {"value": "0"}}},
	}},
}

test_parameters_turned_off_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.DBforPostgreSQL/servers/pg/configurations/log_connections"}
	count(rule.resources) == 2 with input as state
}
