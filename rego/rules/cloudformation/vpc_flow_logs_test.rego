package rules.cfn_vpc_flow_logs_test

import data.rules.cfn_vpc_flow_logs as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::EC2::VPC": {"Logged": {"attributes": {"CidrBlock": "10.0.0.0/16"}}, "Unlogged": {"attributes": {"CidrBlock": "10.1.0.0/16"}}},
		"AWS::EC2::FlowLog": {"LoggedLog": {"attributes": {"ResourceId": "Logged", "ResourceType": "VPC", "TrafficType": "ALL"}}},
	},
}

test_vpc_without_flow_log_fails if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"Unlogged"}
	count(rule.resources) == 3 with input as state
}
