package rules.tf_gcp_instance_shielded_vm_test

import data.rules.tf_gcp_instance_shielded_vm as rule
import rego.v1

test_shielded_passes if {
	count(rule.deny) == 0 with input as {"shielded_instance_config": [{"enable_secure_boot": true}]}
}

test_unshielded_fails if {
	count(rule.deny) == 1 with input as {"name": "vm"}
	count(rule.deny) == 1 with input as {"shielded_instance_config": [{"enable_vtpm": false}]}
}
