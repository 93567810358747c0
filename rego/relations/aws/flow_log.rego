# VPCs and the flow logs that record their traffic.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_vpc.flow_log",
	{"aws_vpc": ["id"]},
	{"aws_flow_log": ["vpc_id"]},
)
