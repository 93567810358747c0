# The account password policy prevents reuse of the last 24 passwords.
package rules.tf_aws_iam_password_reuse

import rego.v1

resource_type := "aws_iam_account_password_policy"

input_type := "tf"

metadata := {
	"id": "RE-AWS-020",
	"title": "IAM password policy prevents password reuse",
	"description": "Reusing old passwords brings back credentials that may have leaked; the policy should remember the last 24.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "low",
	"aliases": ["CKV_AWS_13"],
	"controls": ["CIS-AWS_v1.5.0_1.9"],
	"remediation": {"terraform": "Set password_reuse_prevention = 24 on the aws_iam_account_password_policy."},
	"references": ["https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_passwords_account-policy.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_account_password_policy"],
}

deny contains info if {
	object.get(input, "password_reuse_prevention", 0) < 24
	info := {"message": "password_reuse_prevention is below 24.", "attributes": [["password_reuse_prevention"]]}
}
