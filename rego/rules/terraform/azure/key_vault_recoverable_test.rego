package rules.tf_azure_key_vault_recoverable_test

import data.rules.tf_azure_key_vault_recoverable as rule
import rego.v1

test_protected_passes if {
	count(rule.deny) == 0 with input as {"purge_protection_enabled": true}
}

test_unprotected_fails if {
	count(rule.deny) == 1 with input as {"sku_name": "premium"}
	count(rule.deny) == 2 with input as {"purge_protection_enabled": false, "soft_delete_enabled": false}
}
