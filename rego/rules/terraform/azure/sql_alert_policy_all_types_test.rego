package rules.tf_azure_sql_alert_policy_all_types_test

import data.rules.tf_azure_sql_alert_policy_all_types as rule
import rego.v1

test_configured_policy_passes if {
	count(rule.deny) == 0 with input as {"state": "Enabled"}
}

test_misconfigured_policy_fails if {
	count(rule.deny) == 1 with input as {"state": "Enabled", "disabled_alerts": ["Sql_Injection"]}
}
