package rules.tf_gcp_sql_require_ssl_test

import data.rules.tf_gcp_sql_require_ssl as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"settings": [{"ip_configuration": [{"ssl_mode": "ENCRYPTED_ONLY"}]}]}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"settings": [{"ip_configuration": [{"require_ssl": false}]}]}
}
