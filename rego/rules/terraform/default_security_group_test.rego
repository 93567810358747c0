package rules.tf_aws_default_security_group_test

import data.rules.tf_aws_default_security_group as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"aws_vpc": {"aws_vpc.managed": {"attributes": {}}, "aws_vpc.unmanaged": {"attributes": {}}},
	"aws_default_security_group": {
		"aws_default_security_group.managed": {"attributes": {"vpc_id": "aws_vpc.managed"}},
		"aws_default_security_group.open": {"attributes": {"ingress": [{"protocol": "-1", "self": true}], "egress": [{"protocol": "-1", "cidr_blocks": ["0.0.0.0/0"]}]}},
	},
}}

test_unmanaged_vpcs_and_groups_with_rules_fail if {
	{[i.resource._id, object.get(i, "result_tag", "")] | some i in rule.deny} == {
		["aws_vpc.unmanaged", ""],
		["aws_default_security_group.open", "ingress"],
		["aws_default_security_group.open", "egress"],
	} with input as state
}
