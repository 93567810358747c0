package rules.tf_gcp_sql_open_authorized_network_test

import data.rules.tf_gcp_sql_open_authorized_network as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"settings": [{"ip_configuration": [{"authorized_networks": [{"value": "10.0.0.0/8"}]}]}]}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"settings": [{"ip_configuration": [{"authorized_networks": [{"value": "0.0.0.0/0"}]}]}]}
}
