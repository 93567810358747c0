package rules.tf_gcp_apikey_exists_test

import data.rules.tf_gcp_apikey_exists as rule
import rego.v1

test_every_api_key_fails if {
	count(rule.deny) == 1 with input as {"display_name": "maps"}
	count(rule.deny) == 1 with input as {"restrictions": [{"api_targets": [{"service": "maps.googleapis.com"}]}]}
}
