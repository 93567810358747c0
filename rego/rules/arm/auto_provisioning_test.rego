package rules.arm_auto_provisioning_test

import data.rules.arm_auto_provisioning as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"autoProvision": "On"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"autoProvision": "Off"}}
	count(rule.deny) == 1 with input as {"properties": {}}
}
