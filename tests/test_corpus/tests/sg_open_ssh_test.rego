# Tests of a single-resource rule (v0 syntax): `input` is one resource.
package rules.sg_open_ssh_test

import data.fixtures.s3
import data.rules.sg_open_ssh

open_rule := {"from_port": 22, "to_port": 22, "cidr_blocks": ["0.0.0.0/0"]}

test_open_ssh_is_denied {
	count(sg_open_ssh.deny) == 1 with input as {"ingress": [open_rule]}
}

test_closed_ssh_is_allowed {
	count(sg_open_ssh.deny) == 0 with input as {"ingress": [{"from_port": 22, "to_port": 22, "cidr_blocks": ["10.0.0.0/8"]}]}
}

test_port_range_covering_ssh_is_denied {
	count(sg_open_ssh.deny) == 1 with input as {"ingress": [{"from_port": 0, "to_port": 1024, "cidr_blocks": ["0.0.0.0/0"]}]}
}

test_attribute_path_names_the_rule {
	info := sg_open_ssh.deny[_] with input as {"ingress": [{"from_port": 80, "to_port": 80, "cidr_blocks": []}, open_rule]}
	info.attributes == [["ingress", 1]]
}

test_fixture_security_group {
	sg := s3.mock_input.resources.aws_security_group["aws_security_group.ssh"].attributes
	count(sg_open_ssh.deny) == 1 with input as sg
}

test_resource_type {
	sg_open_ssh.resource_type == "aws_security_group"
}

# Deliberately failing: no rule produces this message.
test_deliberately_undefined_message {
	sg_open_ssh.deny[_].message == "no such message" with input as {"ingress": [open_rule]}
}
