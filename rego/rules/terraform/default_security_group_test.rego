package rules.tf_aws_default_security_group_test

import data.rules.tf_aws_default_security_group as rule
import rego.v1

test_empty_group_passes if {
	count(rule.deny) == 0 with input as {"vpc_id": "aws_vpc.main"}
}

test_rules_fail if {
	count(rule.deny) == 2 with input as {"ingress": [{"protocol": "-1", "self": true}], "egress": [{"protocol": "-1", "cidr_blocks": ["0.0.0.0/0"]}]}
}
