# The account password policy requires 14 characters.
package rules.tf_aws_iam_password_length

import rego.v1

resource_type := "aws_iam_account_password_policy"

input_type := "tf"

metadata := {
	"id": "RE-AWS-019",
	"title": "IAM password policy requires at least 14 characters",
	"description": "Short passwords fall to guessing and cracking; the account password policy should require at least 14 characters for IAM users' console passwords.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "medium",
	"aliases": ["CKV_AWS_10"],
	"controls": ["CIS-AWS_v1.5.0_1.8"],
	"remediation": {"terraform": "Set minimum_password_length = 14 (or more) on the aws_iam_account_password_policy."},
	"references": ["https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_account_password_policy"],
}

deny contains info if {
	object.get(input, "minimum_password_length", 6) < 14
	info := {"message": sprintf("minimum_password_length is %v.", [object.get(input, "minimum_password_length", 6)]), "attributes": [["minimum_password_length"]]}
}
