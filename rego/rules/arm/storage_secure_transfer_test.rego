package rules.arm_storage_secure_transfer_test

import data.rules.arm_storage_secure_transfer as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"supportsHttpsTrafficOnly": true}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"supportsHttpsTrafficOnly": false}}
}
