# Storage accounts accept requests over HTTPS only.
package rules.arm_storage_secure_transfer

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-001",
	"title": "Storage accounts require secure transfer",
	"description": "With supportsHttpsTrafficOnly set to false a storage account accepts requests and SAS tokens over plain HTTP, where they can be read or altered on the way.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "high",
	"aliases": ["CKV_AZURE_3"],
	"controls": ["CIS-Azure_v1.3.0_3.1"],
	"remediation": {"arm": "Set properties.supportsHttpsTrafficOnly to true (the default since API version 2019-04-01)."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-require-secure-transfer", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

deny contains info if {
	input.properties.supportsHttpsTrafficOnly == false
	info := {"message": "supportsHttpsTrafficOnly is false.", "attributes": [["properties", "supportsHttpsTrafficOnly"]]}
}
