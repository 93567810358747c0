# Storage accounts encrypt with a customer-managed key.
package rules.arm_storage_cmk

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-031",
	"title": "Storage accounts are encrypted with a customer-managed key",
	"description": "Storage accounts are always encrypted at rest, by default with Microsoft-managed keys; with properties.encryption.keySource Microsoft.Keyvault the key is one the organisation controls, rotates and can revoke.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "low",
	"aliases": ["CKV2_AZURE_1"],
	"controls": ["CIS-Azure_v1.3.0_3.9"],
	"remediation": {"arm": "Set properties.encryption.keySource to Microsoft.Keyvault with keyvaultproperties (keyname, keyvaulturi) and an identity that can read the key."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/customer-managed-keys-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

deny contains info if {
	lower(object.get(input, ["properties", "encryption", "keySource"], "Microsoft.Storage")) != "microsoft.keyvault"
	info := {"message": "The account is encrypted with Microsoft-managed keys only.", "attributes": [["properties", "encryption"]]}
}
