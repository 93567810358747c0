# App Service apps do not allow plain FTP.
package rules.tf_azure_app_service_ftps

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-030",
	"title": "App Service apps do not allow plain FTP",
	"description": "Allowing all FTP states lets deployment credentials and content cross the network unencrypted; FTPS only, or FTP disabled, avoids it. The rule covers azurerm_app_service and the web and function app resources of provider v3.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_78"],
	"controls": ["CIS-Azure_v1.3.0_9.10"],
	"remediation": {"terraform": "Set site_config { ftps_state = \"FtpsOnly\" } or \"Disabled\"."},
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
	config.ftps_state == "AllAllowed"
	info := {"resource": app, "message": "site_config.ftps_state is AllAllowed.", "attributes": [["site_config", i, "ftps_state"]]}
}

# The provider v2 resources default to AllAllowed; the v3 ones to Disabled.
allow_all_by_default := {"azurerm_app_service", "azurerm_function_app"}

deny contains info if {
	some type in allow_all_by_default
	some app in snyk.resources(type)
	not ftps_state_set(app)
	info := {"resource": app, "message": "site_config.ftps_state is unset, and it defaults to AllAllowed."}
}

ftps_state_set(app) if app.site_config[_].ftps_state
