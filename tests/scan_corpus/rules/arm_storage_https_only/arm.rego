# Single-resource rule, Rego v1, ARM input.
package rules.arm_storage_https_only

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "SNYK-CC-AZURE-STORAGE-1",
	"title": "Storage account allows plain HTTP traffic",
	"description": "Without supportsHttpsTrafficOnly, clients may send storage requests and SAS tokens unencrypted.",
	"platform": ["Azure"],
	"remediation": {
		"arm": "Set `properties.supportsHttpsTrafficOnly` to `true`.",
		"console": "In the portal, open the storage account > Configuration and enable 'Secure transfer required'.",
	},
	"references": "https://learn.microsoft.com/azure/storage/common/storage-require-secure-transfer",
	"category": "Network",
	"service_group": "Storage",
	"controls": ["CIS-Azure_v1.3.0_3.1"],
	"severity": "Medium",
	"kind": "vulnerability",
}

deny contains info if {
	input.properties.supportsHttpsTrafficOnly == false
	info := {
		"message": sprintf("Storage account %s accepts HTTP requests", [input.name]),
		"attributes": [["properties", "supportsHttpsTrafficOnly"]],
	}
}

# Before API version 2019-04-01 the property defaulted to false.
deny contains info if {
	not "supportsHttpsTrafficOnly" in object.keys(input.properties)
	input.apiVersion < "2019-04-01"
	info := {
		"message": sprintf("Storage account %s omits supportsHttpsTrafficOnly, which defaults to false for API version %s", [input.name, input.apiVersion]),
		"attributes": [["properties"]],
	}
}
