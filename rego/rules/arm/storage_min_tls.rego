# Storage accounts refuse TLS versions older than 1.2.
package rules.arm_storage_min_tls

import rego.v1

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-002",
	"title": "Storage accounts require TLS 1.2 or later",
	"description": "TLS 1.0 and 1.1 have known weaknesses. A storage account whose minimumTlsVersion is below TLS1_2, or unset (TLS1_0 for the API versions that predate the setting's new default), still negotiates them.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Storage",
	"severity": "medium",
	"aliases": ["CKV_AZURE_44"],
	"controls": ["CIS-Azure_v1.3.0_3.12"],
	"remediation": {"arm": "Set properties.minimumTlsVersion to \"TLS1_2\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/transport-layer-security-configure-minimum-version", "https://learn.microsoft.com/en-us/azure/templates/microsoft.storage/storageaccounts"],
}

deny contains info if {
	not object.get(input, ["properties", "minimumTlsVersion"], "TLS1_0") in {"TLS1_2", "TLS1_3"}
	info := {"message": "minimumTlsVersion is not TLS1_2.", "attributes": [["properties", "minimumTlsVersion"]]}
}
