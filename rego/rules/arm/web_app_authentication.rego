# App Service apps have App Service Authentication on.
package rules.arm_web_app_authentication

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-038",
	"title": "App Service apps have authentication enabled",
	"description": "App Service Authentication turns away anonymous requests before they reach the app's code. The rule reads each Microsoft.Web/sites resource's authsettings (properties.enabled) and authsettingsV2 (properties.platform.enabled) config children.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_13"],
	"controls": ["CIS-Azure_v1.3.0_9.1"],
	"remediation": {"arm": "Add a Microsoft.Web/sites/config child named authsettingsV2 with properties.platform.enabled true and an identity provider (or authsettings with properties.enabled true)."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-authentication-authorization", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites/config-authsettingsv2"],
}

enabled(config) if {
	endswith(lower(config._id), "/config/authsettings")
	config.properties.enabled == true
}

enabled(config) if {
	endswith(lower(config._id), "/config/authsettingsv2")
	config.properties.platform.enabled == true
}

authenticated(site) if {
	some config in snyk.resources("Microsoft.Web/sites/config")
	config._parent_id == site._id
	enabled(config)
}

deny contains info if {
	some site in snyk.resources("Microsoft.Web/sites")
	not authenticated(site)
	info := {"resource": site, "message": "App Service Authentication is not enabled."}
}

resources contains {"resource": site} if some site in snyk.resources("Microsoft.Web/sites")
