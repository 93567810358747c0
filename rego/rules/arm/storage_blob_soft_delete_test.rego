package rules.arm_storage_blob_soft_delete_test

import data.rules.arm_storage_blob_soft_delete as rule
import rego.v1

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Storage/storageAccounts": {
			"Microsoft.Storage/storageAccounts/kept": {"attributes": {"properties": {}}},
			"Microsoft.Storage/storageAccounts/lost": {"attributes": {"properties": {}}},
		},
		"Microsoft.Storage/storageAccounts/blobServices": {"Microsoft.Storage/storageAccounts/kept/blobServices/default": {"attributes": {
			"_parent_id": "Microsoft.Storage/storageAccounts/kept",
			"properties": {"deleteRetentionPolicy": {"enabled": true, "days": 7}},
		}}},
	},
}

test_accounts_without_soft_delete_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Microsoft.Storage/storageAccounts/lost"}
	count(rule.resources) == 2 with input as state
}
