package rules.tf_azure_storage_default_deny_test

import data.rules.tf_azure_storage_default_deny as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_storage_account": {
		"azurerm_storage_account.inline": {"attributes": {"name": "inline", "network_rules": [{"default_action": "Deny"}]}},
		"azurerm_storage_account.separate": {"attributes": {"name": "separate"}},
		"azurerm_storage_account.open": {"attributes": {"name": "open", "network_rules": [{"default_action": "Allow"}]}},
		"azurerm_storage_account.plain": {"attributes": {"name": "plain"}},
	},
	"azurerm_storage_account_network_rules": {"azurerm_storage_account_network_rules.separate": {"attributes": {"storage_account_id": "azurerm_storage_account.separate", "default_action": "Deny"}}},
}}

test_accounts_without_default_deny_fail if {
	{i.resource._id | some i in rule.deny} == {"azurerm_storage_account.open", "azurerm_storage_account.plain"} with input as state
}
