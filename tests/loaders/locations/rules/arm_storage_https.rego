package rules.arm_storage_https

import rego.v1

input_type := "arm"

resource_type := "Microsoft.Storage/storageAccounts"

deny contains info if {
	input.properties.supportsHttpsTrafficOnly == false
	info := {
		"message": "storage account accepts plain HTTP",
		"attributes": [["properties", "supportsHttpsTrafficOnly"]],
	}
}

# computed from a parameter's default: located where the expression is written
deny contains info if {
	input.location == "westeurope"
	info := {"message": "data stays in the EU", "attributes": [["location"]], "result_tag": "eu"}
}
