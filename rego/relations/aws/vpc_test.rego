package relations_test.aws.vpc

import data.snyk
import rego.v1

# Terraform plan: ids unknown until apply resolve to addresses; a known id joins too.
state := {
	"input_type": "tf_plan",
	"resources": {
		"aws_security_group": {
			"aws_security_group.web": {"attributes": {"name": "web"}},
			"aws_security_group.db": {"attributes": {"id": "sg-0db", "name": "db"}},
		},
		"aws_security_group_rule": {"aws_security_group_rule.https": {"attributes": {"security_group_id": "aws_security_group.web"}}},
		"aws_vpc_security_group_ingress_rule": {"aws_vpc_security_group_ingress_rule.pg": {"attributes": {"security_group_id": "sg-0db"}}},
		"aws_instance": {"aws_instance.web": {"attributes": {"vpc_security_group_ids": ["aws_security_group.web", "sg-0db"]}}},
		"aws_lb": {"aws_lb.front": {"attributes": {"security_groups": ["aws_security_group.web"]}}},
		"aws_network_interface": {"aws_network_interface.eni": {"attributes": {"security_groups": ["sg-0db"]}}},
		"aws_launch_template": {"aws_launch_template.lt": {"attributes": {"network_interfaces": [{"security_groups": ["aws_security_group.web"]}]}}},
	},
}

attached(sg_id) := {r._id |
	some sg in snyk.resources("aws_security_group")
	sg._id == sg_id
	some r in snyk.relates(sg, "aws_security_group")
}

test_group_attachments if {
	attached("aws_security_group.web") == {
		"aws_security_group_rule.https",
		"aws_instance.web",
		"aws_lb.front",
		"aws_launch_template.lt",
	} with input as state
	attached("aws_security_group.db") == {
		"aws_vpc_security_group_ingress_rule.pg",
		"aws_instance.web",
		"aws_network_interface.eni",
	} with input as state
}

test_instance_back_to_groups if {
	some i in snyk.resources("aws_instance") with input as state
	{sg._id | some sg in snyk.back_relates("aws_security_group", i)} == {"aws_security_group.web", "aws_security_group.db"} with input as state
}
