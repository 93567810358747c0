package rules.tf_azure_storage_secure_transfer_test

import data.rules.tf_azure_storage_secure_transfer as rule
import rego.v1

test_default_and_true_pass if {
	count(rule.deny) == 0 with input as {"name": "a"}
	count(rule.deny) == 0 with input as {"enable_https_traffic_only": true}
}

test_http_allowed_fails if {
	[i.attributes | some i in rule.deny] == [[["https_traffic_only_enabled"]]] with input as {"https_traffic_only_enabled": false}
}
