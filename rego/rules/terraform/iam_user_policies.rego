# IAM users get permissions through groups only.
package rules.tf_aws_iam_user_policies

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-021",
	"title": "IAM policies are attached to groups or roles, not users",
	"description": "Policies attached to individual users are easy to overlook when people change roles or leave; granting permissions through groups keeps them reviewable in one place.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "low",
	"aliases": ["CKV_AWS_40"],
	"controls": ["CIS-AWS_v1.5.0_1.15"],
	"remediation": {"terraform": "Replace aws_iam_user_policy and aws_iam_user_policy_attachment with a group's policies and aws_iam_user_group_membership."},
	"references": ["https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_user_policy_attachment"],
}

types := ["aws_iam_user_policy", "aws_iam_user_policy_attachment", "aws_iam_policy_attachment"]

deny contains info if {
	some type in ["aws_iam_user_policy", "aws_iam_user_policy_attachment"]
	some grant in snyk.resources(type)
	info := {"resource": grant, "message": "The policy is attached to a user."}
}

deny contains info if {
	some grant in snyk.resources("aws_iam_policy_attachment")
	count(object.get(grant, "users", [])) > 0
	info := {"resource": grant, "message": "The policy is attached to users.", "attributes": [["users"]]}
}

resources contains {"resource": r} if {
	some type in types
	some r in snyk.resources(type)
}
