package rules.tf_aws_vpc_flow_logs_test

import data.rules.tf_aws_vpc_flow_logs as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"aws_vpc": {"aws_vpc.logged": {"attributes": {}}, "aws_vpc.silent": {"attributes": {}}},
	"aws_flow_log": {"aws_flow_log.logged": {"attributes": {"vpc_id": "aws_vpc.logged"}}},
}}

test_vpcs_without_flow_logs_fail if {
	{i.resource._id | some i in rule.deny} == {"aws_vpc.silent"} with input as state
}
