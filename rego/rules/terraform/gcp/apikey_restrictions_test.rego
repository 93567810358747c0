package rules.tf_gcp_apikey_restrictions_test

import data.rules.tf_gcp_apikey_restrictions as rule
import rego.v1

test_restricted_key_passes if {
	key := {"restrictions": [{
		"server_key_restrictions": [{"allowed_ips": ["203.0.113.10"]}],
		"api_targets": [{"service": "translate.googleapis.com"}],
	}]}
	count(rule.deny) == 0 with input as key
}

test_unrestricted_keys_fail if {
	tags := {i.result_tag | some i in rule.deny} with input as {"display_name": "maps"}
	tags == {"applications", "api_targets"}
	tags_api := {i.result_tag | some i in rule.deny} with input as {"restrictions": [{"api_targets": [{"service": "maps.googleapis.com"}]}]}
	tags_api == {"applications"}
}
