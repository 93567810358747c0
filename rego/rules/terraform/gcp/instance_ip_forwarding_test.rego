package rules.tf_gcp_instance_ip_forwarding_test

import data.rules.tf_gcp_instance_ip_forwarding as rule
import rego.v1

test_default_passes if {
	count(rule.deny) == 0 with input as {"name": "vm"}
}

test_forwarding_fails if {
	count(rule.deny) == 1 with input as {"can_ip_forward": true}
}
