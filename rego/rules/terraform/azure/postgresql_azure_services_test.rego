package rules.tf_azure_postgresql_azure_services_test

import data.rules.tf_azure_postgresql_azure_services as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"start_ip_address": "10.0.0.1", "end_ip_address": "10.0.0.1"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"start_ip_address": "0.0.0.0", "end_ip_address": "0.0.0.0"}
}
