package rules.tf_azure_storage_min_tls_test

import data.rules.tf_azure_storage_min_tls as rule
import rego.v1

test_tls12_passes if {
	count(rule.deny) == 0 with input as {"min_tls_version": "TLS1_2"}
}

test_tls10_and_unset_fail if {
	count(rule.deny) == 1 with input as {"min_tls_version": "TLS1_0"}
	count(rule.deny) == 1 with input as {}
}
