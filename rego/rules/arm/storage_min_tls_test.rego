package rules.arm_storage_min_tls_test

import data.rules.arm_storage_min_tls as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"minimumTlsVersion": "TLS1_2"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {}}
}
