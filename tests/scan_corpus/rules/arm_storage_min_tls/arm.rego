# Single-resource rule, Rego v0, ARM input.
package rules.arm_storage_min_tls

resource_type := "Microsoft.Storage/storageAccounts"

input_type := "arm"

metadata := {
	"id": "SNYK-CC-AZURE-STORAGE-3",
	"title": "Storage account accepts TLS versions below 1.2",
	"description": "TLS 1.0 and 1.1 have known weaknesses and are deprecated.",
	"platform": ["Azure"],
	"remediation": {"arm": "Set `properties.minimumTlsVersion` to `TLS1_2`."},
	"severity": "medium",
}

# An account without the property accepts TLS 1.0.
minimum_tls := object.get(input.properties, "minimumTlsVersion", "TLS1_0")

deny[info] {
	parts := split(minimum_tls, "_")
	to_number(parts[1]) < 2
	info := {
		"message": sprintf("Storage account %s allows %s", [input.name, minimum_tls]),
		"attributes": [["properties", "minimumTlsVersion"]],
	}
}
