# Security groups and the resources that attach them; named after the
# security group, since many resource types can use one (seed 000, rule 3).
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_security_group",
	{"aws_security_group": ["id", "name"]},
	{
		"aws_instance": ["vpc_security_group_ids[*]", "security_groups[*]"],
		"aws_launch_template": ["vpc_security_group_ids[*]"],
		"aws_lb": ["security_groups[*]"],
		"aws_db_instance": ["vpc_security_group_ids[*]"],
		"aws_security_group_rule": ["security_group_id"],
	},
)
