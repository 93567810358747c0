# Default security groups allow no traffic.
package rules.tf_aws_default_security_group

import rego.v1

resource_type := "aws_default_security_group"

input_type := "tf"

metadata := {
	"id": "RE-AWS-029",
	"title": "Default security groups restrict all traffic",
	"description": "Resources launched without a security group land in the VPC's default group; if it allows traffic, they are exposed without anyone having chosen to. Managing it in Terraform with no ingress or egress rules removes its rules.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "medium",
	"aliases": ["CKV2_AWS_12"],
	"controls": ["CIS-AWS_v1.5.0_5.4"],
	"remediation": {"terraform": "Remove every ingress and egress block from the aws_default_security_group."},
	"references": ["https://docs.aws.amazon.com/vpc/latest/userguide/default-security-group.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/default_security_group"],
}

deny contains info if {
	some direction in ["ingress", "egress"]
	count(object.get(input, direction, [])) > 0
	info := {"message": sprintf("The default security group has %s rules.", [direction]), "attributes": [[direction]]}
}
