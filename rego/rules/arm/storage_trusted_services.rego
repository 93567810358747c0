# Storage network rules let trusted Azure services through.
package rules.arm_storage_trusted_services

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-019",
	"title": "Storage network rules allow trusted Microsoft services",
	"description": "An account that denies network access by default also blocks Azure services such as Backup, Monitor and Event Grid unless networkAcls.bypass names AzureServices (its default).",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Storage",
	"severity": "low",
	"aliases": ["CKV_AZURE_36"],
	"controls": ["CIS-Azure_v1.3.0_3.7"],
	"remediation": {"arm": "Include AzureServices in properties.networkAcls.bypass (for example \"AzureServices, Logging, Metrics\")."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-network-security#grant-access-to-trusted-azure-services", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

# bypass is a comma-separated list of AzureServices, Logging, Metrics, None.
bypassed := {trim_space(s) | some s in split(object.get(input, ["properties", "networkAcls", "bypass"], "AzureServices"), ",")}

deny contains info if {
	lower(object.get(input, ["properties", "networkAcls", "defaultAction"], "")) == "deny"
	not "AzureServices" in bypassed
	info := {"message": "The network rules do not let trusted Azure services through.", "attributes": [["properties", "networkAcls", "bypass"]]}
}
