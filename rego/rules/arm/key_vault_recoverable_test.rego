package rules.arm_key_vault_recoverable_test

import data.rules.arm_key_vault_recoverable as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"enablePurgeProtection": true}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {}}
}
