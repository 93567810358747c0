package relations_test.aws.flow_log

import data.snyk
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_vpc": {
			"aws_vpc.main": {"attributes": {"cidr_block": "10.0.0.0/16"}},
			"aws_vpc.other": {"attributes": {"cidr_block": "10.1.0.0/16"}},
		},
		"aws_flow_log": {"aws_flow_log.main": {"attributes": {"vpc_id": "aws_vpc.main", "traffic_type": "ALL"}}},
	},
}

vpc(id) := v if {
	some v in snyk.resources("aws_vpc")
	v._id == id
}

test_flow_log_by_vpc_id if {
	[f._id | some f in snyk.relates(vpc("aws_vpc.main"), "aws_vpc.flow_log")] == ["aws_flow_log.main"] with input as state
	[f._id | some f in snyk.relates(vpc("aws_vpc.other"), "aws_vpc.flow_log")] == [] with input as state
}

test_default_security_group_by_vpc_id if {
	[g._id | some g in snyk.relates(vpc("aws_vpc.main"), "aws_vpc.default_security_group")] == ["aws_default_security_group.main"] with input as object.union(state, {"resources": {"aws_default_security_group": {"aws_default_security_group.main": {"attributes": {"vpc_id": "aws_vpc.main"}}}}})
}
