package rules.tf_azure_security_contact_alert_notifications_test

import data.rules.tf_azure_security_contact_alert_notifications as rule
import rego.v1

test_on_passes if {
	count(rule.deny) == 0 with input as {"alert_notifications": true}
}

test_off_fails if {
	count(rule.deny) == 1 with input as {"alert_notifications": false}
}
