# Storage accounts deny network access by default.
package rules.tf_azure_storage_default_deny

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-004",
	"title": "Storage accounts deny network access by default",
	"description": "A storage account's network rules default to Allow, which accepts connections from any network. Setting the default action to Deny and listing the networks and services that need access narrows what can reach the account. The rule reads the inline network_rules block and azurerm_storage_account_network_rules resources that refer to the account.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Storage",
	"severity": "medium",
	"aliases": ["CKV_AZURE_35"],
	"controls": ["CIS-Azure_v1.3.0_3.6"],
	"remediation": {"terraform": "Add network_rules { default_action = \"Deny\" ... } to the account, or an azurerm_storage_account_network_rules resource for it with default_action = \"Deny\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-network-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account_network_rules"],
}

relation := "azurerm_storage_account.network_rules"

denies(rules) if lower(object.get(rules, "default_action", "")) == "deny"

restricted(account) if {
	some rules in object.get(account, "network_rules", [])
	denies(rules)
}

restricted(account) if {
	some rules in snyk.relates(account, relation)
	denies(rules)
}

deny contains info if {
	some account in snyk.resources("azurerm_storage_account")
	not restricted(account)
	info := {"resource": account, "message": "No network rules deny access by default."}
}

resources contains {"resource": account} if some account in snyk.resources("azurerm_storage_account")

resources contains info if {
	some account in snyk.resources("azurerm_storage_account")
	some rules in snyk.relates(account, relation)
	info := {"primary_resource": account, "resource": rules, "attributes": [["default_action"]]}
}
