# Managed disks do not turn Azure Disk Encryption off.
package rules.tf_azure_managed_disk_encryption

import rego.v1

resource_type := "azurerm_managed_disk"

input_type := "tf"

metadata := {
	"id": "RE-AZ-035",
	"title": "Managed disks do not disable disk encryption",
	"description": "A managed disk whose encryption_settings are disabled, and that has no disk encryption set with a customer-managed key, relies on platform keys alone and is readable by whoever gets a copy of the disk's contents through the platform.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Compute",
	"severity": "medium",
	"aliases": ["CKV_AZURE_2"],
	"remediation": {"terraform": "Set encryption_settings { enabled = true ... } with a Key Vault secret, or disk_encryption_set_id to a disk encryption set with a customer-managed key."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-machines/disk-encryption-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/managed_disk#encryption_settings"],
}

deny contains info if {
	some i, settings in input.encryption_settings
	settings.enabled == false
	object.get(input, "disk_encryption_set_id", "") == ""
	info := {"message": "encryption_settings.enabled is false.", "attributes": [["encryption_settings", i, "enabled"]]}
}
