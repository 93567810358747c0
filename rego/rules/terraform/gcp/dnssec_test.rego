package rules.tf_gcp_dnssec_test

import data.rules.tf_gcp_dnssec as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"dnssec_config": [{"state": "on"}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"dns_name": "example.com."}
}
