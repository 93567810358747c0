package rules.tf_azure_storage_cmk_test

import data.rules.tf_azure_storage_cmk as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_storage_account": {
			"azurerm_storage_account.inline": {"attributes": {"customer_managed_key": [{"key_vault_key_id": "azurerm_key_vault_key.k"}]}},
			"azurerm_storage_account.separate": {"attributes": {"name": "separate"}},
			"azurerm_storage_account.platform": {"attributes": {"name": "platform"}},
		},
		"azurerm_storage_account_customer_managed_key": {"azurerm_storage_account_customer_managed_key.separate": {"attributes": {"storage_account_id": "azurerm_storage_account.separate"}}},
	},
}

test_accounts_without_customer_keys_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"azurerm_storage_account.platform"}
	count(rule.resources) == 4 with input as state
}
