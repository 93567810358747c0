package rules.tf_gcp_dns_logging_test

import data.rules.tf_gcp_dns_logging as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"enable_logging": true}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"name": "p"}
}
