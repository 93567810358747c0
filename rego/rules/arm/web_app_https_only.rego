# App Service apps redirect HTTP to HTTPS.
package rules.arm_web_app_https_only

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-010",
	"title": "App Service apps redirect HTTP to HTTPS",
	"description": "httpsOnly makes an app answer plain HTTP requests with a redirect to HTTPS; it is off by default.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "medium",
	"aliases": ["CKV_AZURE_14"],
	"controls": ["CIS-Azure_v1.3.0_9.2"],
	"remediation": {"arm": "Set properties.httpsOnly to true."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	object.get(input, ["properties", "httpsOnly"], false) != true
	info := {"message": "httpsOnly is not true.", "attributes": [["properties", "httpsOnly"]]}
}
