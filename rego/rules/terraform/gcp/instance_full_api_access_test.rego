package rules.tf_gcp_instance_full_api_access_test

import data.rules.tf_gcp_instance_full_api_access as rule
import rego.v1

test_narrow_scopes_pass if {
	count(rule.deny) == 0 with input as {"service_account": [{"scopes": ["storage-ro"]}]}
	count(rule.deny) == 0 with input as {"service_account": [{"email": "app@p.iam.gserviceaccount.com", "scopes": ["cloud-platform"]}]}
}

test_full_access_fails if {
	count(rule.deny) == 1 with input as {"service_account": [{"scopes": ["cloud-platform"]}]}
}
