package rules.tf_gcp_dnssec_rsasha1_test

import data.rules.tf_gcp_dnssec_rsasha1 as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"dnssec_config": [{"default_key_specs": [{"algorithm": "rsasha256", "key_type": "keySigning"}]}]}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"dnssec_config": [{"default_key_specs": [{"algorithm": "rsasha1", "key_type": "zoneSigning"}]}]}
}
