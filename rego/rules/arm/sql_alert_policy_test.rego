package rules.arm_sql_alert_policy_test

import data.rules.arm_sql_alert_policy as rule
import rego.v1

test_complete_policy_passes if {
	count(rule.deny) == 0 with input as {"properties": {"state": "Enabled", "emailAddresses": ["sec@example.com"], "emailAccountAdmins": true, "disabledAlerts": [""]}}
}

test_incomplete_policies_fail if {
	tags := {i.result_tag | some i in rule.deny} with input as {"properties": {"state": "Enabled", "disabledAlerts": ["Sql_Injection"]}}
	tags == {"emailAddresses", "emailAccountAdmins", "disabledAlerts"}
}
