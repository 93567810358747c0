package rules.tf_azure_app_service_settings_secrets_test

import data.rules.tf_azure_app_service_settings_secrets as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_linux_web_app": {"azurerm_linux_web_app.vaulted": {"attributes": {"app_settings": {
			"DB_PASSWORD": "@Microsoft.KeyVault(SecretUri=https://v.vault.azure.net/secrets/db/)",
			"WEBSITE_RUN_FROM_PACKAGE": "1",
		}}}},
		"azurerm_windows_function_app": {"azurerm_windows_function_app.literal": {"attributes": {"app_settings": {
			"Stripe.ApiKey": "sk_test_123",
			"STORAGE_ACCOUNT_KEY": "abc==",
			"FUNCTIONS_WORKER_RUNTIME": "dotnet",
		}}}},
	},
}

test_literal_secrets_fail if {
	failures := {[i.resource._id, i.message] | some i in rule.deny} with input as state
	failures == {["azurerm_windows_function_app.literal", "App settings STORAGE_ACCOUNT_KEY, Stripe.ApiKey hold literal values instead of Key Vault references."]}
	count(rule.resources) == 2 with input as state
}
