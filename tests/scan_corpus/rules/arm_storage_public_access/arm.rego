# Multi-resource rule, Rego v1 (no rego.v1 import), ARM input: two
# independent checks on one account, told apart by result_tag.
package rules.arm_storage_public_access

import data.snyk

resource_type := "MULTIPLE"

input_type := "arm"

metadata := {
	"id": "SNYK-CC-AZURE-STORAGE-7",
	"title": "Storage account is reachable publicly",
	"description": "Anonymous blob access or a network ACL whose default action is Allow exposes the account.",
	"platform": ["Azure"],
	"remediation": {
		"arm": "Set `properties.allowBlobPublicAccess` to false and `properties.networkAcls.defaultAction` to Deny.",
		"console": "Disable 'Allow Blob public access' and restrict 'Public network access' in the portal.",
	},
	"service_group": "Storage",
	"controls": ["CIS-Azure_v1.3.0_3.5", "CIS-Azure_v1.3.0_3.6"],
	"severity": "High",
}

accounts := snyk.resources("Microsoft.Storage/storageAccounts")

checks := {
	"blob_public_access": ["properties", "allowBlobPublicAccess"],
	"network_default_action": ["properties", "networkAcls", "defaultAction"],
}

# The defaults ARM applies when a property is omitted.
failing(account, "blob_public_access") if object.get(account, checks.blob_public_access, true) == true

failing(account, "network_default_action") if object.get(account, checks.network_default_action, "Allow") == "Allow"

deny contains info if {
	some account in accounts
	some tag, path in checks
	failing(account, tag)
	info := {
		"resource": account,
		"result_tag": tag,
		"message": sprintf("Storage account %s fails %s (%s)", [account.name, tag, concat(".", path)]),
		"attributes": [path],
	}
}

resources contains info if {
	some account in accounts
	some tag, _ in checks
	info := {"resource": account, "result_tag": tag}
}
