package rules.tf_gcp_instance_default_service_account_test

import data.rules.tf_gcp_instance_default_service_account as rule
import rego.v1

test_dedicated_account_passes if {
	count(rule.deny) == 0 with input as {"service_account": [{"email": "app@p.iam.gserviceaccount.com"}]}
	count(rule.deny) == 0 with input as {"name": "no-account"}
}

test_default_account_fails if {
	count(rule.deny) == 1 with input as {"service_account": [{"email": "123-compute@developer.gserviceaccount.com"}]}
	count(rule.deny) == 1 with input as {"service_account": [{"scopes": ["storage-ro"]}]}
}
