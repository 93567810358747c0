# App Service apps require TLS 1.2 or later.
package rules.arm_web_app_min_tls

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-011",
	"title": "App Service apps require TLS 1.2 or later",
	"description": "An app whose minimum TLS version is below 1.2 still negotiates TLS 1.0 and 1.1.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_15"],
	"controls": ["CIS-Azure_v1.3.0_9.3"],
	"remediation": {"arm": "Set properties.siteConfig.minTlsVersion to \"1.2\" (or leave it unset)."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	version := input.properties.siteConfig.minTlsVersion
	to_number(version) < 1.2
	info := {"message": sprintf("minTlsVersion is %v.", [version]), "attributes": [["properties", "siteConfig", "minTlsVersion"]]}
}
