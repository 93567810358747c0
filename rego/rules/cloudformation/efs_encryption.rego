# EFS file systems are encrypted at rest.
package rules.cfn_efs_encryption

import data.shipped_lib.aws
import rego.v1

resource_type := "AWS::EFS::FileSystem"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-014",
	"title": "EFS file systems are encrypted at rest",
	"description": "An EFS file system is encrypted at rest only when created so, and Encrypted defaults to false in CloudFormation; turning it on later replaces the file system.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "EFS",
	"severity": "medium",
	"aliases": ["CKV_AWS_42"],
	"controls": ["CIS-AWS_v1.5.0_2.4.1"],
	"remediation": {"cloudformation": "Set Encrypted: true (and KmsKeyId for a customer-managed key) on the AWS::EFS::FileSystem; the file system is replaced."},
	"references": [
		"https://docs.aws.amazon.com/efs/latest/ug/encryption.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-efs-filesystem.html",
	],
}

deny contains info if {
	not aws.cfn_true(object.get(input, "Encrypted", false))
	info := {"message": "Encrypted is not true.", "attributes": [["Encrypted"]]}
}
