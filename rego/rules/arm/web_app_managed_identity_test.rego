package rules.arm_web_app_managed_identity_test

import data.rules.arm_web_app_managed_identity as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"identity": {"type": "SystemAssigned"}}
	count(rule.deny) == 0 with input as {"identity": {"type": "SystemAssigned, UserAssigned"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {}}
	count(rule.deny) == 1 with input as {"identity": {"type": "None"}}
}
