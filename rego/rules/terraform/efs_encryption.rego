# EFS file systems are encrypted at rest.
package rules.tf_aws_efs_encryption

import rego.v1

resource_type := "aws_efs_file_system"

input_type := "tf"

metadata := {
	"id": "RE-AWS-024",
	"title": "EFS file systems are encrypted at rest",
	"description": "An EFS file system is encrypted at rest only when created so; encryption cannot be turned on later.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "EFS",
	"severity": "medium",
	"aliases": ["CKV_AWS_42"],
	"controls": ["CIS-AWS_v1.5.0_2.4.1"],
	"remediation": {"terraform": "Set encrypted = true (and kms_key_id for a customer-managed key); the file system must be recreated."},
	"references": ["https://docs.aws.amazon.com/efs/latest/ug/encryption.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/efs_file_system#encrypted"],
}

deny contains info if {
	object.get(input, "encrypted", false) != true
	info := {"message": "encrypted is not true.", "attributes": [["encrypted"]]}
}
