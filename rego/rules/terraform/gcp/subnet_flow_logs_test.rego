package rules.tf_gcp_subnet_flow_logs_test

import data.rules.tf_gcp_subnet_flow_logs as rule
import rego.v1

test_logged_and_proxy_subnets_pass if {
	count(rule.deny) == 0 with input as {"log_config": [{"flow_sampling": 1}]}
	count(rule.deny) == 0 with input as {"purpose": "REGIONAL_MANAGED_PROXY"}
}

test_unlogged_subnet_fails if {
	count(rule.deny) == 1 with input as {"ip_cidr_range": "10.0.0.0/24"}
}
