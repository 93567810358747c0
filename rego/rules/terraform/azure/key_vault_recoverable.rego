# Key vaults are recoverable: purge protection on.
package rules.tf_azure_key_vault_recoverable

import rego.v1

resource_type := "azurerm_key_vault"

input_type := "tf"

metadata := {
	"id": "RE-AZ-022",
	"title": "Key vaults have purge protection enabled",
	"description": "Soft delete keeps deleted vaults and objects for a retention period; purge protection stops anyone, including an attacker with the owner's rights, from purging them before it ends. Without it, a deleted key can make encrypted data unrecoverable.",
	"platform": ["Azure"],
	"category": "Key management",
	"service_group": "Key Vault",
	"severity": "medium",
	"aliases": ["CKV_AZURE_42"],
	"controls": ["CIS-Azure_v1.3.0_8.4"],
	"remediation": {"terraform": "Set purge_protection_enabled = true (and do not set soft_delete_enabled = false)."},
	"references": ["https://learn.microsoft.com/en-us/azure/key-vault/general/soft-delete-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/key_vault#purge_protection_enabled"],
}

deny contains info if {
	object.get(input, "purge_protection_enabled", false) != true
	info := {"message": "purge_protection_enabled is not true.", "attributes": [["purge_protection_enabled"]]}
}

deny contains info if {
	input.soft_delete_enabled == false
	info := {"message": "soft_delete_enabled is false.", "attributes": [["soft_delete_enabled"]]}
}
