package rules.tf_aws_sg_public_exposure_test

import data.rules.tf_aws_sg_public_exposure as rule
import rego.v1

state := {
	"input_type": "tf_plan",
	"resources": {
		"aws_security_group": {
			"aws_security_group.web": {"attributes": {"ingress": [{"protocol": "tcp", "from_port": 443, "to_port": 443, "cidr_blocks": ["0.0.0.0/0"]}]}},
			"aws_security_group.debug": {"attributes": {"ingress": [
				{"protocol": "tcp", "from_port": 443, "to_port": 443, "cidr_blocks": ["0.0.0.0/0"]},
				{"protocol": "tcp", "from_port": 8000, "to_port": 9000, "cidr_blocks": ["0.0.0.0/0"]},
			]}},
			"aws_security_group.rule": {"attributes": {}},
		},
		"aws_security_group_rule": {"aws_security_group_rule.all": {"attributes": {"type": "ingress", "security_group_id": "aws_security_group.rule", "protocol": "-1", "from_port": 0, "to_port": 0, "ipv6_cidr_blocks": ["::/0"]}}},
		"aws_instance": {
			"aws_instance.public": {"attributes": {"associate_public_ip_address": true, "vpc_security_group_ids": ["aws_security_group.web", "aws_security_group.debug"]}},
			"aws_instance.private": {"attributes": {"associate_public_ip_address": false, "vpc_security_group_ids": ["aws_security_group.debug", "aws_security_group.rule"]}},
		},
		"aws_lb": {
			"aws_lb.front": {"attributes": {"internal": false, "security_groups": ["aws_security_group.web", "aws_security_group.rule"]}},
			"aws_lb.inside": {"attributes": {"internal": true, "security_groups": ["aws_security_group.debug"]}},
		},
	},
}

test_open_groups_on_reachable_resources if {
	failures := {[i.primary_resource._id, i.result_tag, i.message] | some i in rule.deny} with input as state
	failures == {
		["aws_security_group.debug", "attached[aws_instance.public]", "The group opens ports 8000-9000 to the internet and is attached to internet-reachable aws_instance.public."],
		["aws_security_group.rule", "attached[aws_lb.front]", "The group opens all ports to the internet and is attached to internet-reachable aws_lb.front."],
	}
}

test_web_only_groups_pass if {
	passes := {[i.primary_resource._id, i.result_tag] | some i in rule.resources} with input as state
	["aws_security_group.web", "attached[aws_lb.front]"] in passes
	["aws_security_group.web", "attached[aws_instance.public]"] in passes
}
