# App Service apps use a managed identity.
package rules.arm_web_app_managed_identity

import rego.v1

resource_type := "Microsoft.Web/sites"

input_type := "arm"

metadata := {
	"id": "RE-ARM-017",
	"title": "App Service apps use a managed identity",
	"description": "A managed identity lets the app reach Key Vault, storage and databases with tokens Azure issues and rotates, instead of secrets kept in its settings.",
	"platform": ["Azure"],
	"category": "Web applications",
	"service_group": "App Service",
	"severity": "low",
	"aliases": ["CKV_AZURE_16"],
	"controls": ["CIS-Azure_v1.3.0_9.5"],
	"remediation": {"arm": "Add \"identity\": {\"type\": \"SystemAssigned\"} (or UserAssigned with userAssignedIdentities) to the site."},
	"references": ["https://learn.microsoft.com/en-us/azure/app-service/overview-managed-identity", "https://learn.microsoft.com/en-us/azure/templates/microsoft.web/sites"],
}

deny contains info if {
	lower(object.get(input, ["identity", "type"], "None")) == "none"
	info := {"message": "The app has no managed identity.", "attributes": [["identity"]]}
}
