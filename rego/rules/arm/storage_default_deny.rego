# Storage accounts deny network access by default.
package rules.arm_storage_default_deny

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-004",
	"title": "Storage accounts deny network access by default",
	"description": "networkAcls.defaultAction defaults to Allow, which accepts connections from any network; Deny with the needed networks and services listed narrows what can reach the account.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Storage",
	"severity": "medium",
	"aliases": ["CKV_AZURE_35"],
	"controls": ["CIS-Azure_v1.3.0_3.6"],
	"remediation": {"arm": "Set properties.networkAcls.defaultAction to \"Deny\" and list the allowed virtual networks and addresses."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-network-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

deny contains info if {
	lower(object.get(input, ["properties", "networkAcls", "defaultAction"], "Allow")) != "deny"
	info := {"message": "Network access is allowed by default.", "attributes": [["properties", "networkAcls", "defaultAction"]]}
}
