# Storage accounts refuse TLS versions older than 1.2.
package rules.tf_azure_storage_min_tls

import rego.v1

resource_type := "azurerm_storage_account"

input_type := "tf"

metadata := {
	"id": "RE-AZ-002",
	"title": "Storage accounts require TLS 1.2 or later",
	"description": "TLS 1.0 and 1.1 have known weaknesses and are retired by most clients. A storage account whose min_tls_version is below TLS1_2 still negotiates them; unset, it is TLS1_0 with azurerm providers before v3, so the rule asks for it to be stated.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "medium",
	"aliases": ["CKV_AZURE_44"],
	"controls": ["CIS-Azure_v1.3.0_3.12"],
	"remediation": {"terraform": "Set min_tls_version = \"TLS1_2\" on the azurerm_storage_account."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/transport-layer-security-configure-minimum-version", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account#min_tls_version"],
}

deny contains info if {
	version := input.min_tls_version
	not version in {"TLS1_2", "TLS1_3"}
	info := {"message": sprintf("min_tls_version is %v.", [version]), "attributes": [["min_tls_version"]]}
}

deny contains info if {
	not input.min_tls_version
	info := {"message": "min_tls_version is unset: providers before v3 (and older API versions) default to TLS1_0."}
}
