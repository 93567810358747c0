package rules.tf_azure_storage_queue_logging_test

import data.rules.tf_azure_storage_queue_logging as rule
import rego.v1

test_full_logging_passes if {
	count(rule.deny) == 0 with input as {"queue_properties": [{"logging": [{"read": true, "write": true, "delete": true}]}]}
}

test_partial_or_no_logging_fails if {
	[i.message | some i in rule.deny] == ["Queue logging leaves out read, delete requests."] with input as {"queue_properties": [{"logging": [{"read": false, "write": true, "delete": false}]}]}
	count(rule.deny) == 1 with input as {}
}
