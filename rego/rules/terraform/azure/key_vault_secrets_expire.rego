# Key Vault secrets have an expiration date.
package rules.tf_azure_key_vault_secrets_expire

import rego.v1

resource_type := "azurerm_key_vault_secret"

input_type := "tf"

metadata := {
	"id": "RE-AZ-021",
	"title": "Key Vault secrets have an expiration date",
	"description": "Key Vault secrets without an expiration date stay valid forever; an expiry forces rotation and limits how long a leaked value is useful.",
	"platform": ["Azure"],
	"category": "Key management",
	"service_group": "Key Vault",
	"severity": "medium",
	"aliases": ["CKV_AZURE_41"],
	"controls": ["CIS-Azure_v1.3.0_8.2"],
	"remediation": {"terraform": "Set expiration_date (an RFC 3339 time) on the azurerm_key_vault_secret, and rotate before it passes."},
	"references": ["https://learn.microsoft.com/en-us/azure/key-vault/general/about-keys-secrets-certificates", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/key_vault_secret"],
}

deny contains info if {
	object.get(input, "expiration_date", "") == ""
	info := {"message": "No expiration_date is set."}
}
