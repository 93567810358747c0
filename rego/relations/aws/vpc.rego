# Security groups and the resources that attach them or add rules to them;
# named after the security group, since many resource types can use one
# (seed 000, rule 3). A group is known by its id (in configuration, the
# address a reference renders as) or its name (EC2-Classic `security_groups`).
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_security_group",
	{"aws_security_group": ["id", "name"]},
	{
		"aws_instance": ["vpc_security_group_ids[*]", "security_groups[*]"],
		"aws_launch_template": ["vpc_security_group_ids[*]", "network_interfaces[*].security_groups[*]"],
		"aws_network_interface": ["security_groups[*]"],
		"aws_lb": ["security_groups[*]"],
		"aws_elb": ["security_groups[*]"],
		"aws_db_instance": ["vpc_security_group_ids[*]"],
		"aws_security_group_rule": ["security_group_id"],
		"aws_vpc_security_group_ingress_rule": ["security_group_id"],
		"aws_vpc_security_group_egress_rule": ["security_group_id"],
	},
)
