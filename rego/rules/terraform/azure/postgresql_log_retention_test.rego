package rules.tf_azure_postgresql_log_retention_test

import data.rules.tf_azure_postgresql_log_retention as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"name": "log_retention_days", "value": "7"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"name": "log_retention_days", "value": "3"}
}
