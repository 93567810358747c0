# Storage network rules let trusted Azure services through.
package rules.tf_azure_storage_trusted_services

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-038",
	"title": "Storage network rules allow trusted Microsoft services",
	"description": "When an account denies network access by default, Azure services such as Backup, Monitor and Defender can reach it only if the network rules bypass AzureServices; without it, logging and backup to the account silently fail. The rule reads inline network_rules blocks and azurerm_storage_account_network_rules resources.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Storage",
	"severity": "low",
	"aliases": ["CKV_AZURE_36"],
	"controls": ["CIS-Azure_v1.3.0_3.7"],
	"remediation": {"terraform": "Add \"AzureServices\" to bypass in the account's network rules."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-network-security#grant-access-to-trusted-azure-services", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account_network_rules#bypass"],
}

blocks_services(rules) if {
	lower(object.get(rules, "default_action", "")) == "deny"
	not "AzureServices" in object.get(rules, "bypass", ["AzureServices"])
}

deny contains info if {
	some account in snyk.resources("azurerm_storage_account")
	some i, rules in object.get(account, "network_rules", [])
	blocks_services(rules)
	info := {"resource": account, "message": "The network rules do not let trusted Azure services through.", "attributes": [["network_rules", i, "bypass"]]}
}

# A separate network rules resource is failed itself: the fix goes there.
deny contains info if {
	some rules in snyk.resources("azurerm_storage_account_network_rules")
	blocks_services(rules)
	info := {"resource": rules, "message": "The network rules do not let trusted Azure services through.", "attributes": [["bypass"]]}
}

resources contains {"resource": r} if {
	some type in ["azurerm_storage_account", "azurerm_storage_account_network_rules"]
	some r in snyk.resources(type)
}
