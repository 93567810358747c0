package rules.tf_azure_storage_blob_public_access_test

import data.rules.tf_azure_storage_blob_public_access as rule
import rego.v1

test_disallowed_passes if {
	count(rule.deny) == 0 with input as {"allow_nested_items_to_be_public": false}
	count(rule.deny) == 0 with input as {"allow_blob_public_access": false}
}

test_allowed_or_unset_fails if {
	count(rule.deny) == 1 with input as {"allow_nested_items_to_be_public": true}
	count(rule.deny) == 1 with input as {"name": "a"}
}
