# Key Vault keys and secrets have an expiration date: one result per key or
# secret.
package rules.arm_key_vault_expiry

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-021",
	"title": "Key Vault keys and secrets have an expiration date",
	"description": "A key or secret without an expiry stays valid forever, so nothing forces its rotation; properties.attributes.exp (seconds since 1970) sets one.",
	"platform": ["Azure"],
	"category": "Key management",
	"service_group": "Key Vault",
	"severity": "medium",
	"aliases": ["CKV_AZURE_40", "CKV_AZURE_41"],
	"controls": ["CIS-Azure_v1.3.0_8.1", "CIS-Azure_v1.3.0_8.2"],
	"remediation": {"arm": "Set properties.attributes.exp on each Microsoft.KeyVault/vaults/keys and vaults/secrets resource, and rotate before it passes."},
	"references": ["https://learn.microsoft.com/en-us/azure/key-vault/keys/about-keys", "https://learn.microsoft.com/en-us/azure/templates/microsoft.keyvault/vaults/secrets"],
}

types := ["Microsoft.KeyVault/vaults/keys", "Microsoft.KeyVault/vaults/secrets"]

deny contains info if {
	some type in types
	some item in snyk.resources(type)
	not item.properties.attributes.exp
	info := {"resource": item, "message": "No expiration date (properties.attributes.exp) is set.", "attributes": [["properties", "attributes"]]}
}

resources contains {"resource": item} if {
	some type in types
	some item in snyk.resources(type)
}
