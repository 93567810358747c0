package rules.arm_storage_default_deny_test

import data.rules.arm_storage_default_deny as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"networkAcls": {"defaultAction": "Deny"}}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {}}
}
