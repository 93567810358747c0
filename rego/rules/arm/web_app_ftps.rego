# App Service apps do not allow plain FTP.
package rules.arm_web_app_ftps

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-012",
	"title": "App Service apps do not allow plain FTP",
	"description": "Allowing all FTP states lets deployment credentials and content cross the network unencrypted.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_78"],
	"controls": ["CIS-Azure_v1.3.0_9.10"],
	"remediation": {"arm": "Set properties.siteConfig.ftpsState to \"FtpsOnly\" or \"Disabled\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/deploy-ftp", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	input.properties.siteConfig.ftpsState == "AllAllowed"
	info := {"message": "ftpsState is AllAllowed.", "attributes": [["properties", "siteConfig", "ftpsState"]]}
}
