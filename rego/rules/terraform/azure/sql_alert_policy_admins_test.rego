package rules.tf_azure_sql_alert_policy_admins_test

import data.rules.tf_azure_sql_alert_policy_admins as rule
import rego.v1

test_configured_policy_passes if {
	count(rule.deny) == 0 with input as {"email_account_admins": true}
}

test_misconfigured_policy_fails if {
	count(rule.deny) == 1 with input as {"email_account_admins": false}
}
