# Storage accounts keep deleted blobs for a while.
package rules.tf_azure_storage_blob_soft_delete

import rego.v1

resource_type := "azurerm_storage_account"

input_type := "tf"

metadata := {
	"id": "RE-AZ-039",
	"title": "Storage accounts have blob soft delete enabled",
	"description": "Soft delete keeps deleted or overwritten blobs for a retention period, so that a mistaken or malicious deletion can be undone.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_3.8"],
	"remediation": {"terraform": "Add blob_properties { delete_retention_policy { days = 7 } } (or more days) to the account."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/blobs/soft-delete-blob-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account#delete_retention_policy"],
}

soft_delete if {
	some properties in input.blob_properties
	count(object.get(properties, "delete_retention_policy", [])) > 0
}

deny contains info if {
	not soft_delete
	info := {"message": "Blob soft delete is not configured."}
}
