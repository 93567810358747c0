# IAM policies do not grant every action on every resource: one result per
# offending statement.
package rules.tf_aws_iam_admin_policy

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-012",
	"title": "IAM policies do not grant full administrative privileges",
	"description": "A statement allowing Action \"*\" on Resource \"*\" grants full administrative access. Policies should grant only the actions and resources a principal needs (least privilege). Checked in aws_iam_policy and in the inline aws_iam_role_policy, aws_iam_user_policy and aws_iam_group_policy.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "high",
	"remediation": {
		"terraform": "Replace Action \"*\" / Resource \"*\" in the policy document with the specific actions and resource ARNs needed.",
		"console": "In IAM > Policies, edit the policy's JSON to list specific actions and resources.",
	},
	"references": [
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege",
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html",
	],
}

policy_types := ["aws_iam_policy", "aws_iam_role_policy", "aws_iam_user_policy", "aws_iam_group_policy"]

deny contains info if {
	some type in policy_types
	some p in snyk.resources(type)
	some [i, s] in aws.statements(p.policy)
	aws.grants_admin(s)
	tag := aws.statement_tag(i, s)
	info := {
		"resource": p,
		"result_tag": tag,
		"message": sprintf("The policy's %s allows every action on every resource.", [tag]),
		"attributes": [["policy"]],
	}
}

resources contains info if {
	some type in policy_types
	some p in snyk.resources(type)
	some [i, s] in aws.statements(p.policy)
	info := {"resource": p, "result_tag": aws.statement_tag(i, s)}
}
