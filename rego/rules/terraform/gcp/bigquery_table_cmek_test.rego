package rules.tf_gcp_bigquery_table_cmek_test

import data.rules.tf_gcp_bigquery_table_cmek as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"encryption_configuration": [{"kms_key_name": "k"}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"table_id": "t"}
}
