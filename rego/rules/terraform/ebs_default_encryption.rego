# EBS encryption by default is not turned off.
package rules.tf_aws_ebs_default_encryption

import rego.v1

resource_type := "aws_ebs_encryption_by_default"

input_type := "tf"

metadata := {
	"id": "RE-AWS-022",
	"title": "EBS encryption by default is enabled",
	"description": "With EBS encryption by default, every new volume and snapshot copy in the region is encrypted, whatever the tool that creates it.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "EC2",
	"severity": "medium",
	"aliases": ["CKV_AWS_106"],
	"controls": ["CIS-AWS_v1.5.0_2.2.1"],
	"remediation": {"terraform": "Set enabled = true on the aws_ebs_encryption_by_default (the default)."},
	"references": ["https://docs.aws.amazon.com/ebs/latest/userguide/work-with-ebs-encr.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ebs_encryption_by_default"],
}

deny contains info if {
	input.enabled == false
	info := {"message": "enabled is false.", "attributes": [["enabled"]]}
}
