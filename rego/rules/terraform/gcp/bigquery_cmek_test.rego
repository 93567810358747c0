package rules.tf_gcp_bigquery_cmek_test

import data.rules.tf_gcp_bigquery_cmek as rule
import rego.v1

test_cmek_passes if {
	count(rule.deny) == 0 with input as {"default_encryption_configuration": [{"kms_key_name": "k"}]}
}

test_google_key_fails if {
	count(rule.deny) == 1 with input as {"dataset_id": "d"}
}
