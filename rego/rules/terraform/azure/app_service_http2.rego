# App Service apps use HTTP/2.
package rules.tf_azure_app_service_http2

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-029",
	"title": "App Service apps use HTTP/2",
	"description": "HTTP/2 fixes head-of-line blocking and header compression weaknesses of HTTP/1.1; it is off by default. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_18"],
	"controls": ["CIS-Azure_v1.3.0_9.9"],
	"remediation": {"terraform": "Set site_config { http2_enabled = true }."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app"],
}

types := ["azurerm_app_service", "azurerm_linux_web_app", "azurerm_windows_web_app", "azurerm_function_app", "azurerm_linux_function_app", "azurerm_windows_function_app"]

resources contains {"resource": app} if {
	some type in types
	some app in snyk.resources(type)
}

http2(app) if {
	some config in app.site_config
	config.http2_enabled == true
}

deny contains info if {
	some type in types
	some app in snyk.resources(type)
	not http2(app)
	info := {"resource": app, "message": "site_config.http2_enabled is not true."}
}
