package rules.tf_azure_storage_trusted_services_test

import data.rules.tf_azure_storage_trusted_services as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_storage_account": {
		"azurerm_storage_account.good": {"attributes": {"name": "good", "network_rules": [{"default_action": "Deny", "bypass": ["AzureServices", "Logging"]}]}},
		"azurerm_storage_account.bad": {"attributes": {"name": "bad"}},
	},
	"azurerm_storage_account_network_rules": {"azurerm_storage_account_network_rules.bad": {"attributes": {"storage_account_name": "bad", "default_action": "Deny", "bypass": ["Metrics"]}}},
}}

test_rules_without_azure_services_fail if {
	{i.resource._id | some i in rule.deny} == {"azurerm_storage_account_network_rules.bad"} with input as state
}
