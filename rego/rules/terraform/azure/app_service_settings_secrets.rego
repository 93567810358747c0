# App Service apps keep secrets in Key Vault, not in literal app settings.
package rules.tf_azure_app_service_settings_secrets

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-048",
	"title": "App Service apps take secrets from Key Vault, not literal app settings",
	"description": "App settings are readable by everyone with read access to the app's configuration, and a literal value in Terraform also lands in its state and version control. A Key Vault reference (@Microsoft.KeyVault(...)) keeps the secret in the vault, read with the app's managed identity. The rule flags app_settings entries with a literal value whose name says password, secret, token, credential, connection string or key (access, API, private or account).",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_9.11"],
	"remediation": {"terraform": "Store the secret in Key Vault and set the app setting to \"@Microsoft.KeyVault(SecretUri=...)\", giving the app's managed identity read access to the secret; rotate the exposed value."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/app-service/app-service-key-vault-references",
		"https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app#app_settings",
	],
}

types := ["azurerm_app_service", "azurerm_linux_web_app", "azurerm_windows_web_app", "azurerm_function_app", "azurerm_linux_function_app", "azurerm_windows_function_app"]

credential_words := ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "CONNECTIONSTRING", "APIKEY", "ACCESSKEY", "PRIVATEKEY", "ACCOUNTKEY"]

credential_name(name) if {
	squashed := replace(replace(replace(upper(name), "_", ""), "-", ""), ".", "")
	some word in credential_words
	contains(squashed, word)
}

literal_secrets(app) := sort([name |
	some name, value in object.get(app, "app_settings", {})
	is_string(value)
	value != ""
	not startswith(value, "@Microsoft.KeyVault(")
	credential_name(name)
])

deny contains info if {
	some type in types
	some app in snyk.resources(type)
	names := literal_secrets(app)
	count(names) > 0
	info := {
		"resource": app,
		"message": sprintf("App settings %s hold literal values instead of Key Vault references.", [concat(", ", names)]),
		"attributes": [["app_settings"]],
	}
}

resources contains {"resource": app} if {
	some type in types
	some app in snyk.resources(type)
}
