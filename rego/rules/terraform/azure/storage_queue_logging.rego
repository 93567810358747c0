# Storage accounts log read, write and delete requests to their queues.
package rules.tf_azure_storage_queue_logging

import rego.v1

resource_type := "azurerm_storage_account"

input_type := "tf"

metadata := {
	"id": "RE-AZ-005",
	"title": "Storage queue logging covers reads, writes and deletes",
	"description": "Storage Analytics logging of the queue service records who read, wrote and deleted messages. Without all three, misuse of a queue leaves no trace. The rule reads queue_properties.logging of the account.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Storage",
	"severity": "low",
	"aliases": ["CKV_AZURE_33"],
	"controls": ["CIS-Azure_v1.3.0_3.3"],
	"remediation": {"terraform": "Add queue_properties { logging { read = true, write = true, delete = true, version = \"1.0\", retention_policy_days = 90 } } to the account."},
	"references": ["https://learn.microsoft.com/en-us/azure/storage/common/storage-analytics-logging", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account#logging"],
}

operations := ["read", "write", "delete"]

deny contains info if {
	not input.queue_properties[0].logging[0]
	info := {"message": "The queue service has no logging configured."}
}

deny contains info if {
	logging := input.queue_properties[0].logging[0]
	missing := [op | some op in operations; object.get(logging, op, false) != true]
	count(missing) > 0
	info := {
		"message": sprintf("Queue logging leaves out %s requests.", [concat(", ", missing)]),
		"attributes": [["queue_properties", 0, "logging", 0, op] | some op in missing],
	}
}
