# App Service apps require client certificates.
package rules.arm_web_app_client_certs

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-016",
	"title": "App Service apps require client certificates",
	"description": "With incoming client certificates required, only clients presenting a certificate reach the app, which can then check it; off by default.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_17"],
	"controls": ["CIS-Azure_v1.3.0_9.4"],
	"remediation": {"arm": "Set properties.clientCertEnabled to true (and clientCertMode to Required)."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/app-service-web-configure-tls-mutual-auth", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	object.get(input, ["properties", "clientCertEnabled"], false) != true
	info := {"message": "clientCertEnabled is not true.", "attributes": [["properties", "clientCertEnabled"]]}
}
