# Storage accounts accept requests over HTTPS only.
package rules.tf_azure_storage_secure_transfer

import rego.v1

resource_type := "azurerm_storage_account"

input_type := "tf"

metadata := {
	"id": "RE-AZ-001",
	"title": "Storage accounts require secure transfer",
	"description": "With secure transfer turned off, a storage account accepts requests and SAS tokens over plain HTTP, where they can be read or altered on the way. The azurerm provider requires HTTPS by default; this rule fails accounts that turn it off.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "high",
	"aliases": ["CKV_AZURE_3"],
	"controls": ["CIS-Azure_v1.3.0_3.1"],
	"remediation": {"terraform": "Remove enable_https_traffic_only = false (https_traffic_only_enabled in provider v4) or set it to true."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-require-secure-transfer", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account"],
}

deny contains info if {
	some key in ["enable_https_traffic_only", "https_traffic_only_enabled"]
	input[key] == false
	info := {"message": sprintf("%s is false: the account accepts plain HTTP.", [key]), "attributes": [[key]]}
}
