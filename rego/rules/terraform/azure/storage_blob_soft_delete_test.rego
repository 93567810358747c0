package rules.tf_azure_storage_blob_soft_delete_test

import data.rules.tf_azure_storage_blob_soft_delete as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"blob_properties": [{"delete_retention_policy": [{"days": 7}]}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"name": "a"}
}
