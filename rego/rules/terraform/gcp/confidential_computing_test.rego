package rules.tf_gcp_confidential_computing_test

import data.rules.tf_gcp_confidential_computing as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"confidential_instance_config": [{"enable_confidential_compute": true}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"machine_type": "n2d-standard-2"}
}
