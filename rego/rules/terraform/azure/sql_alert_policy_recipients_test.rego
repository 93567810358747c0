package rules.tf_azure_sql_alert_policy_recipients_test

import data.rules.tf_azure_sql_alert_policy_recipients as rule
import rego.v1

test_configured_policy_passes if {
	count(rule.deny) == 0 with input as {"email_addresses": ["secops@example.com"]}
}

test_misconfigured_policy_fails if {
	count(rule.deny) == 1 with input as {"email_addresses": []}
}
