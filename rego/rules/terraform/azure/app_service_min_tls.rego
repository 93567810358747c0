# App Service apps require TLS 1.2 or later.
package rules.tf_azure_app_service_min_tls

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-025",
	"title": "App Service apps require TLS 1.2 or later",
	"description": "An app whose minimum TLS version is below 1.2 still negotiates TLS 1.0 and 1.1, which have known weaknesses. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_15"],
	"controls": ["CIS-Azure_v1.3.0_9.3"],
	"remediation": {"terraform": "Set site_config { minimum_tls_version = \"1.2\" } (min_tls_version for azurerm_app_service), or leave it unset: 1.2 is the default."},
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
	some i, config in object.get(app, "site_config", [])
	some key in ["min_tls_version", "minimum_tls_version"]
	version := config[key]
	to_number(version) < 1.2
	info := {"resource": app, "message": sprintf("%s is %v.", [key, version]), "attributes": [["site_config", i, key]]}
}
