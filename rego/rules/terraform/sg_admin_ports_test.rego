package rules.tf_aws_sg_admin_ports_test

import data.rules.tf_aws_sg_admin_ports as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_security_group": {
			"aws_security_group.bastion": {"attributes": {"ingress": [
				{"protocol": "tcp", "from_port": 443, "to_port": 443, "cidr_blocks": ["0.0.0.0/0"]},
				{"protocol": "tcp", "from_port": 22, "to_port": 22, "cidr_blocks": ["10.0.0.0/8", "0.0.0.0/0"]},
			]}},
			"aws_security_group.all": {"attributes": {"ingress": [{"protocol": "-1", "from_port": 0, "to_port": 0, "ipv6_cidr_blocks": ["::/0"]}]}},
			"aws_security_group.rules": {"attributes": {"name": "rules"}},
			"aws_security_group.private": {"attributes": {"ingress": [{"protocol": "tcp", "from_port": 0, "to_port": 65535, "cidr_blocks": ["10.0.0.0/8"]}]}},
		},
		"aws_security_group_rule": {
			"aws_security_group_rule.rdp": {"attributes": {"type": "ingress", "security_group_id": "aws_security_group.rules", "protocol": "tcp", "from_port": 3380, "to_port": 3390, "cidr_blocks": ["0.0.0.0/0"]}},
			"aws_security_group_rule.egress": {"attributes": {"type": "egress", "security_group_id": "aws_security_group.private", "protocol": "-1", "from_port": 0, "to_port": 0, "cidr_blocks": ["0.0.0.0/0"]}},
		},
		"aws_vpc_security_group_ingress_rule": {"aws_vpc_security_group_ingress_rule.ssh": {"attributes": {"security_group_id": "aws_security_group.rules", "ip_protocol": "tcp", "from_port": 22, "to_port": 22, "cidr_ipv4": "0.0.0.0/0"}}},
	},
}

test_open_admin_ports if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag, i.attributes[0]] | some i in rule.deny} with input as state
	failures == {
		["aws_security_group.bastion", "aws_security_group.bastion", "port[22]", ["ingress", 1]],
		["aws_security_group.all", "aws_security_group.all", "port[22]", ["ingress", 0]],
		["aws_security_group.all", "aws_security_group.all", "port[3389]", ["ingress", 0]],
		["aws_security_group.rules", "aws_security_group_rule.rdp", "port[3389]", []],
		["aws_security_group.rules", "aws_vpc_security_group_ingress_rule.ssh", "port[22]", []],
	}
}

test_each_group_and_port_has_a_result if {
	count(rule.resources) == 8 with input as state
}
