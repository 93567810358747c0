package rules.tf_azure_flow_log_retention_test

import data.rules.tf_azure_flow_log_retention as rule
import rego.v1

test_ninety_days_passes if {
	count(rule.deny) == 0 with input as {"retention_policy": [{"enabled": true, "days": 90}]}
}

test_short_or_disabled_retention_fails if {
	count(rule.deny) == 1 with input as {"retention_policy": [{"enabled": true, "days": 10}]}
	count(rule.deny) == 1 with input as {"retention_policy": [{"enabled": false, "days": 90}]}
}
