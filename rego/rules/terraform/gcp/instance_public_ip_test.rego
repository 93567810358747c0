package rules.tf_gcp_instance_public_ip_test

import data.rules.tf_gcp_instance_public_ip as rule
import rego.v1

test_internal_only_passes if {
	count(rule.deny) == 0 with input as {"network_interface": [{"subnetwork": "s"}]}
}

test_external_ip_fails if {
	count(rule.deny) == 1 with input as {"network_interface": [{"access_config": [{}]}]}
}
