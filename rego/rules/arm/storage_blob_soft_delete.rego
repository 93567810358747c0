# Storage accounts soft-delete blobs.
package rules.arm_storage_blob_soft_delete

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-030",
	"title": "Storage accounts soft-delete blobs",
	"description": "With blob soft delete, deleted or overwritten blobs stay recoverable for the retention period, which limits the damage of a mistake or of an attacker deleting data. The rule reads the blobServices child of each storage account (deleteRetentionPolicy.enabled).",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_3.8"],
	"remediation": {"arm": "Add a Microsoft.Storage/storageAccounts/blobServices child named default with properties.deleteRetentionPolicy {\"enabled\": true, \"days\": 7} or more."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/blobs/soft-delete-blob-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts/blobservices"],
}

soft_delete(account) if {
	some service in snyk.resources("Microsoft.Storage/storageAccounts/blobServices")
	service._parent_id == account._id
	service.properties.deleteRetentionPolicy.enabled == true
}

deny contains info if {
	some account in snyk.resources("Microsoft.Storage/storageAccounts")
	not soft_delete(account)
	info := {"resource": account, "message": "Blob soft delete is not enabled."}
}

resources contains {"resource": account} if some account in snyk.resources("Microsoft.Storage/storageAccounts")
