package rules.arm_aks_rbac_test

import data.rules.arm_aks_rbac as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"enableRBAC": true}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"enableRBAC": false}}
}
