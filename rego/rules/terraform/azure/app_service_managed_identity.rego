# App Service apps use a managed identity.
package rules.tf_azure_app_service_managed_identity

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-028",
	"title": "App Service apps use a managed identity",
	"description": "A managed identity lets the app reach other Azure services with Entra ID tokens instead of credentials kept in its settings. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_16"],
	"controls": ["CIS-Azure_v1.3.0_9.5"],
	"remediation": {"terraform": "Add an identity { type = \"SystemAssigned\" } block (or a user-assigned identity) to the app."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app"],
}

types := ["azurerm_app_service", "azurerm_linux_web_app", "azurerm_windows_web_app", "azurerm_function_app", "azurerm_linux_function_app", "azurerm_windows_function_app"]

resources contains {"resource": app} if {
	some type in types
	some app in snyk.resources(type)
}

deny contains info if {
	some type in types
	some app in snyk.resources(type)
	count(object.get(app, "identity", [])) == 0
	info := {"resource": app, "message": "The app has no managed identity."}
}
