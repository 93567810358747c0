# Storage accounts do not let containers be made public.
package rules.tf_azure_storage_blob_public_access

import rego.v1

resource_type := "azurerm_storage_account"

input_type := "tf"

metadata := {
	"id": "RE-AZ-003",
	"title": "Storage accounts disallow public blob access",
	"description": "When an account allows nested items to be public, any container in it can be switched to anonymous read access. Turning the setting off at the account blocks that for every container. Since provider v3 the attribute is allow_nested_items_to_be_public and it defaults to true, so leaving it unset allows public access.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "high",
	"aliases": ["CKV_AZURE_190"],
	"controls": ["CIS-Azure_v1.3.0_3.5"],
	"remediation": {"terraform": "Set allow_nested_items_to_be_public = false (allow_blob_public_access = false in provider v2)."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/blobs/anonymous-read-access-prevent", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account#allow_nested_items_to_be_public"],
}

settings := ["allow_nested_items_to_be_public", "allow_blob_public_access"]

deny contains info if {
	some key in settings
	input[key] == true
	info := {"message": sprintf("%s is true: containers may be made public.", [key]), "attributes": [[key]]}
}

deny contains info if {
	every key in settings {
		not has_key(input, key)
	}
	info := {"message": "allow_nested_items_to_be_public is unset, and it defaults to true."}
}

has_key(obj, key) if _ = obj[key]
