# App Service apps redirect HTTP to HTTPS.
package rules.tf_azure_app_service_https_only

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-024",
	"title": "App Service apps redirect HTTP to HTTPS",
	"description": "https_only makes an app answer plain HTTP requests with a redirect to HTTPS; it is off by default. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_14"],
	"controls": ["CIS-Azure_v1.3.0_9.2"],
	"remediation": {"terraform": "Set https_only = true on the app."},
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
	object.get(app, "https_only", false) != true
	info := {"resource": app, "message": "https_only is not true.", "attributes": [["https_only"]]}
}
