package rules.tf_azure_log_profile_retention_test

import data.rules.tf_azure_log_profile_retention as rule
import rego.v1

test_long_retention_passes if {
	count(rule.deny) == 0 with input as {"retention_policy": [{"enabled": true, "days": 365}]}
	count(rule.deny) == 0 with input as {"retention_policy": [{"enabled": false, "days": 0}]}
}

test_short_retention_fails if {
	count(rule.deny) == 1 with input as {"retention_policy": [{"enabled": true, "days": 30}]}
}
