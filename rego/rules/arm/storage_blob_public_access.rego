# Storage accounts do not let containers be made public.
package rules.arm_storage_blob_public_access

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-003",
	"title": "Storage accounts disallow public blob access",
	"description": "When allowBlobPublicAccess is true (or unset, which older API versions treat as true), any container of the account can be switched to anonymous read access.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "high",
	"aliases": ["CKV_AZURE_190"],
	"controls": ["CIS-Azure_v1.3.0_3.5"],
	"remediation": {"arm": "Set properties.allowBlobPublicAccess to false."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/blobs/anonymous-read-access-prevent", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

deny contains info if {
	object.get(input, ["properties", "allowBlobPublicAccess"], true) != false
	info := {"message": "allowBlobPublicAccess is not false.", "attributes": [["properties", "allowBlobPublicAccess"]]}
}
