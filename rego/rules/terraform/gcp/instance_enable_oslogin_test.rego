package rules.tf_gcp_instance_enable_oslogin_test

import data.rules.tf_gcp_instance_enable_oslogin as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"metadata": {"enable-oslogin": true}}
	count(rule.deny) == 0 with input as {"metadata": {"enable-oslogin": "TRUE"}}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"metadata": {"enable-oslogin": false}}
}
