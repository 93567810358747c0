package rules.arm_web_app_settings_secrets_test

import data.rules.arm_web_app_settings_secrets as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Web/sites": {
			"Microsoft.Web/sites/vaulted": {"attributes": {"properties": {"siteConfig": {"appSettings": [
				{"name": "DB_PASSWORD", "value": "@Microsoft.KeyVault(SecretUri=https://v.vault.azure.net/secrets/db/)"},
				{"name": "WEBSITE_RUN_FROM_PACKAGE", "value": "1"},
			]}}}},
			"Microsoft.Web/sites/inline": {"attributes": {"properties": {"siteConfig": {"appSettings": [{"name": "Stripe.ApiKey", "value": "sk_test_123"}]}}}},
		},
		"Microsoft.Web/sites/config": {"Microsoft.Web/sites/vaulted/config/appsettings": {"attributes": {
			"_parent_id": "Microsoft.Web/sites/vaulted",
			"properties": {"STORAGE_ACCOUNT_KEY": "abc==", "FUNCTIONS_WORKER_RUNTIME": "dotnet"},
		}}},
	},
}

test_literal_secrets_fail if {
	failures := {[i.resource._id, i.message] | some i in rule.deny} with input as state
	failures == {
		["Microsoft.Web/sites/inline", "App settings Stripe.ApiKey hold literal values instead of Key Vault references."],
		["Microsoft.Web/sites/vaulted/config/appsettings", "App settings STORAGE_ACCOUNT_KEY hold literal values instead of Key Vault references."],
	}
	count(rule.resources) == 3 with input as state
}
