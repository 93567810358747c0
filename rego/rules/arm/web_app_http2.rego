# App Service apps use HTTP/2.
package rules.arm_web_app_http2

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-018",
	"title": "App Service apps use HTTP/2",
	"description": "HTTP/2 fixes head-of-line blocking and header-compression weaknesses of HTTP/1.1; App Service serves it only when siteConfig.http20Enabled is true.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_18"],
	"controls": ["CIS-Azure_v1.3.0_9.9"],
	"remediation": {"arm": "Set properties.siteConfig.http20Enabled to true."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/configure-common", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	object.get(input, ["properties", "siteConfig", "http20Enabled"], false) != true
	info := {"message": "siteConfig.http20Enabled is not true.", "attributes": [["properties", "siteConfig"]]}
}
