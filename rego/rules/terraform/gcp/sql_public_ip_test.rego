package rules.tf_gcp_sql_public_ip_test

import data.rules.tf_gcp_sql_public_ip as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"settings": [{"ip_configuration": [{"ipv4_enabled": false}]}]}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"settings": [{"ip_configuration": [{"ipv4_enabled": true}]}]}
}
