# Storage accounts encrypt with a customer-managed key.
package rules.tf_azure_storage_cmk

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-049",
	"title": "Storage accounts are encrypted with a customer-managed key",
	"description": "Storage accounts are always encrypted at rest, by default with Microsoft-managed keys. A Key Vault key the organisation controls can be rotated on its schedule and revoked to make the data unreadable. The rule reads the account's customer_managed_key block and azurerm_storage_account_customer_managed_key resources naming it.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "low",
	"aliases": ["CKV2_AZURE_1"],
	"controls": ["CIS-Azure_v1.3.0_3.9"],
	"remediation": {"terraform": "Add a customer_managed_key { key_vault_key_id = ..., user_assigned_identity_id = ... } block to the account, or an azurerm_storage_account_customer_managed_key with storage_account_id and key_vault_key_id."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/storage/common/customer-managed-keys-overview",
		"https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account_customer_managed_key",
	],
}

relation := "azurerm_storage_account.customer_managed_key"

has_key(account) if count(object.get(account, "customer_managed_key", [])) > 0

has_key(account) if count(snyk.relates(account, relation)) > 0

deny contains info if {
	some account in snyk.resources("azurerm_storage_account")
	not has_key(account)
	info := {"resource": account, "message": "The account is encrypted with Microsoft-managed keys only."}
}

resources contains {"resource": account} if some account in snyk.resources("azurerm_storage_account")

resources contains {"primary_resource": account, "resource": key} if {
	some account in snyk.resources("azurerm_storage_account")
	some key in snyk.relates(account, relation)
}
