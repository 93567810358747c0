# Default security groups allow no traffic.
package rules.tf_aws_default_security_group

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-029",
	"title": "Default security groups restrict all traffic",
	"description": "Resources launched without a security group land in the VPC's default group, which AWS creates allowing all traffic between its members and all egress. Managing it with an aws_default_security_group that has no ingress or egress rules removes them; a VPC whose default group is not managed so keeps them.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "medium",
	"aliases": ["CKV2_AWS_12"],
	"controls": ["CIS-AWS_v1.5.0_5.4"],
	"remediation": {"terraform": "Add an aws_default_security_group with vpc_id = aws_vpc.x.id and no ingress or egress blocks (or remove those blocks from it)."},
	"references": ["https://docs.aws.amazon.com/vpc/latest/userguide/default-security-group.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/default_security_group"],
}

relation := "aws_vpc.default_security_group"

deny contains info if {
	some group in snyk.resources("aws_default_security_group")
	some direction in ["ingress", "egress"]
	count(object.get(group, direction, [])) > 0
	info := {
		"resource": group,
		"result_tag": direction,
		"message": sprintf("The default security group has %s rules.", [direction]),
		"attributes": [[direction]],
	}
}

deny contains info if {
	some vpc in snyk.resources("aws_vpc")
	count(snyk.relates(vpc, relation)) == 0
	info := {"resource": vpc, "message": "The VPC's default security group is not managed, so it keeps AWS's default rules."}
}

resources contains {"resource": r} if {
	some type in ["aws_vpc", "aws_default_security_group"]
	some r in snyk.resources(type)
}
