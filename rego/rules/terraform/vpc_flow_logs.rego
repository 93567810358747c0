# Every VPC has a flow log.
package rules.tf_aws_vpc_flow_logs

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-027",
	"title": "VPCs have flow logs",
	"description": "VPC flow logs record the accepted and rejected traffic of the VPC's network interfaces, which investigations of an intrusion depend on. The rule reads aws_flow_log resources whose vpc_id is the VPC.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "VPC",
	"severity": "medium",
	"aliases": ["CKV2_AWS_11"],
	"controls": ["CIS-AWS_v1.5.0_3.9"],
	"remediation": {"terraform": "Add an aws_flow_log with vpc_id = aws_vpc.x.id and traffic_type = \"ALL\" (or at least REJECT)."},
	"references": ["https://docs.aws.amazon.com/vpc/latest/userguide/flow-logs.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/flow_log"],
}

relation := "aws_vpc.flow_log"

deny contains info if {
	some vpc in snyk.resources("aws_vpc")
	count(snyk.relates(vpc, relation)) == 0
	info := {"resource": vpc, "message": "No flow log records the VPC's traffic."}
}

resources contains {"resource": vpc} if some vpc in snyk.resources("aws_vpc")

resources contains info if {
	some vpc in snyk.resources("aws_vpc")
	some log in snyk.relates(vpc, relation)
	info := {"primary_resource": vpc, "resource": log}
}
