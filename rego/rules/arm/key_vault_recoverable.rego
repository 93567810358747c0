# Key vaults have purge protection enabled.
package rules.arm_key_vault_recoverable

import rego.v1

resource_type := "Microsoft.KeyVault/vaults"

input_type := "arm"

metadata := {
	"id": "RE-ARM-008",
	"title": "Key vaults have purge protection enabled",
	"description": "Purge protection stops anyone from purging a deleted vault or its objects before the retention period ends; without it a deleted key can make encrypted data unrecoverable.",
	"platform": ["Azure"],
	"category": "Key management",
	"service_group": "Key Vault",
	"severity": "medium",
	"aliases": ["CKV_AZURE_42"],
	"controls": ["CIS-Azure_v1.3.0_8.4"],
	"remediation": {"arm": "Set properties.enablePurgeProtection to true."},
	"references": ["https://learn.microsoft.com/en-us/azure/key-vault/general/soft-delete-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.keyvault/vaults"],
}

deny contains info if {
	object.get(input, ["properties", "enablePurgeProtection"], false) != true
	info := {"message": "enablePurgeProtection is not true.", "attributes": [["properties", "enablePurgeProtection"]]}
}
