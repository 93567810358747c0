package rules.tf_gcp_kms_rotation_test

import data.rules.tf_gcp_kms_rotation as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"rotation_period": "7776000s"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"rotation_period": "31536000s"}
}
