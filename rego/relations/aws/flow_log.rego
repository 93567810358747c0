# VPCs and the flow logs that record their traffic, and their default security group.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_vpc.flow_log",
	{"aws_vpc": ["id"]},
	{"aws_flow_log": ["vpc_id"]},
)

# VPCs and the resource that manages their default security group.
relations contains snyk.relation_from_fields(
	"aws_vpc.default_security_group",
	{"aws_vpc": ["id"]},
	{"aws_default_security_group": ["vpc_id"]},
)
