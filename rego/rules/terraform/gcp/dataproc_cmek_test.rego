package rules.tf_gcp_dataproc_cmek_test

import data.rules.tf_gcp_dataproc_cmek as rule
import rego.v1

test_cluster_with_key_passes if {
	count(rule.deny) == 0 with input as {"cluster_config": [{"encryption_config": [{"kms_key_name": "projects/p/locations/l/keyRings/r/cryptoKeys/k"}]}]}
}

test_cluster_without_key_fails if {
	count(rule.deny) == 1 with input as {"name": "etl"}
	count(rule.deny) == 1 with input as {"cluster_config": [{"master_config": [{"num_instances": 1}]}]}
}
