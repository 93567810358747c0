# IAM roles do not carry administrator access, whether through a managed
# policy ARN, an inline policy, or an AWS::IAM::Policy / ManagedPolicy that
# names the role (Rego v0). One result per role and grant.
package rules.cfn_iam_role_admin

import data.shipped_lib.aws
import data.snyk

input_type := "cfn"

metadata := {
	"id": "RE-CFN-006",
	"title": "IAM roles do not have administrator access",
	"description": "A role with the AdministratorAccess managed policy, or any policy allowing Action \"*\" on Resource \"*\", gives whoever assumes it (a Lambda function, an instance, another account) full control of the account.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "high",
	"remediation": {
		"cloudformation": "Replace AdministratorAccess and \"*\" statements in the role's ManagedPolicyArns, Policies and the AWS::IAM::Policy resources naming it with policies listing the needed actions and resources.",
		"console": "In IAM > Roles, detach administrator policies from the role and attach least-privilege ones.",
	},
	"references": [
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-iam-role.html",
	],
}

# [tag, resource, attribute path] for every grant of administrator access to the role.
grants(role) = array.concat(managed, array.concat(inline, attached)) {
	managed := [[sprintf("ManagedPolicyArns[%d]", [i]), role, ["ManagedPolicyArns", i]] |
		arn := role.ManagedPolicyArns[i]
		aws.admin_policy_arns[arn]
	]
	inline := [[sprintf("Policies[%d]", [i]), role, ["Policies", i, "PolicyDocument"]] |
		policy := role.Policies[i]
		s := aws.statements(policy.PolicyDocument)[_][1]
		aws.grants_admin(s)
	]
	attached := [[policy._id, policy, ["PolicyDocument"]] |
		policy := snyk.relates(role, "AWS::IAM::Role")[_]
		{"AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"}[policy._type]
		s := aws.statements(policy.PolicyDocument)[_][1]
		aws.grants_admin(s)
	]
}

deny[info] {
	role := snyk.resources("AWS::IAM::Role")[_]
	[tag, resource, path] := grants(role)[_]
	info := {
		"primary_resource": role,
		"resource": resource,
		"result_tag": tag,
		"message": sprintf("The role has administrator access through %s.", [tag]),
		"attributes": [path],
	}
}

resources[info] {
	role := snyk.resources("AWS::IAM::Role")[_]
	info := {"resource": role}
}
