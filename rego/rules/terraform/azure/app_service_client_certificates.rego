# App Service apps require client certificates.
package rules.tf_azure_app_service_client_certificates

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-027",
	"title": "App Service apps require client certificates",
	"description": "With incoming client certificates required, only clients holding a valid certificate can call the app (mutual TLS). The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_17"],
	"controls": ["CIS-Azure_v1.3.0_9.4"],
	"remediation": {"terraform": "Set client_certificate_enabled = true (client_cert_enabled for azurerm_app_service)."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app"],
}

types := ["azurerm_app_service", "azurerm_linux_web_app", "azurerm_windows_web_app", "azurerm_function_app", "azurerm_linux_function_app", "azurerm_windows_function_app"]

resources contains {"resource": app} if {
	some type in types
	some app in snyk.resources(type)
}

required(app) if app.client_cert_enabled == true

required(app) if app.client_certificate_enabled == true

deny contains info if {
	some type in types
	some app in snyk.resources(type)
	not required(app)
	info := {"resource": app, "message": "Client certificates are not required."}
}
