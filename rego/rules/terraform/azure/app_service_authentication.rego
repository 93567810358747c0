# App Service apps have App Service Authentication on.
package rules.tf_azure_app_service_authentication

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-026",
	"title": "App Service apps have App Service Authentication on",
	"description": "App Service Authentication makes the platform reject unauthenticated requests before they reach the app's code. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_13"],
	"controls": ["CIS-Azure_v1.3.0_9.1"],
	"remediation": {"terraform": "Add auth_settings { enabled = true ... } (or an auth_settings_v2 block) with the identity provider the app uses."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app"],
}

types := ["azurerm_app_service", "azurerm_linux_web_app", "azurerm_windows_web_app", "azurerm_function_app", "azurerm_linux_function_app", "azurerm_windows_function_app"]

resources contains {"resource": app} if {
	some type in types
	some app in snyk.resources(type)
}

authenticated(app) if {
	some settings in object.get(app, "auth_settings", [])
	settings.enabled == true
}

authenticated(app) if {
	some settings in object.get(app, "auth_settings_v2", [])
	object.get(settings, "auth_enabled", false) == true
}

deny contains info if {
	some type in types
	some app in snyk.resources(type)
	not authenticated(app)
	info := {"resource": app, "message": "App Service Authentication is not enabled."}
}
