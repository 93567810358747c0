package rules.tf_azure_postgresql_logging_parameters_test

import data.rules.tf_azure_postgresql_logging_parameters as rule
import rego.v1

test_on_and_other_parameters_pass if {
	count(rule.deny) == 0 with input as {"name": "log_checkpoints", "value": "on"}
	count(rule.deny) == 0 with input as {"name": "work_mem", "value": "off"}
}

test_off_fails if {
	count(rule.deny) == 1 with input as {"name": "connection_throttling", "value": "OFF"}
}
