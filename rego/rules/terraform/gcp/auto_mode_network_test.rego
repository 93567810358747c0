package rules.tf_gcp_auto_mode_network_test

import data.rules.tf_gcp_auto_mode_network as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"auto_create_subnetworks": false}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"name": "net"}
}
