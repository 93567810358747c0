package rules.tf_gcp_storage_uniform_access_test

import data.rules.tf_gcp_storage_uniform_access as rule
import rego.v1

test_uniform_passes if {
	count(rule.deny) == 0 with input as {"uniform_bucket_level_access": true}
}

test_fine_grained_fails if {
	count(rule.deny) == 1 with input as {"name": "b"}
}
