package rules.arm_security_contacts_test

import data.rules.arm_security_contacts as rule
import rego.v1

test_complete_contacts_pass if {
	count(rule.deny) == 0 with input as {"properties": {"email": "sec@example.com", "alertNotifications": "On", "alertsToAdmins": "On"}}
	count(rule.deny) == 0 with input as {"properties": {
		"emails": "sec@example.com",
		"alertNotifications": {"state": "On", "minimalSeverity": "High"},
		"notificationsByRole": {"state": "On", "roles": ["Owner"]},
	}}
}

test_incomplete_contacts_fail if {
	tags := {i.result_tag | some i in rule.deny} with input as {"properties": {"emails": "sec@example.com", "alertNotifications": {"state": "Off"}}}
	tags == {"alertNotifications", "owners"}
	empty_tags := {i.result_tag | some i in rule.deny} with input as {"properties": {}}
	empty_tags == {"email", "alertNotifications", "owners"}
}
