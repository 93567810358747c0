# IAM users get permissions through groups only.
package rules.cfn_iam_user_policies

import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-020",
	"title": "IAM policies are attached to groups or roles, not users",
	"description": "Policies attached to individual users are easy to overlook when people change roles or leave; granting permissions through groups keeps them reviewable in one place. The rule reads the Policies and ManagedPolicyArns of AWS::IAM::User and the Users of AWS::IAM::Policy and AWS::IAM::ManagedPolicy.",
	"platform": ["AWS"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "low",
	"aliases": ["CKV_AWS_40"],
	"controls": ["CIS-AWS_v1.5.0_1.15"],
	"remediation": {"cloudformation": "Move the user's policies to an AWS::IAM::Group (Policies, ManagedPolicyArns), list the user in that group's membership (Groups on the user), and remove Users from policies."},
	"references": [
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/id_groups.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-iam-user.html",
	],
}

policy_types := ["AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"]

deny contains info if {
	some user in snyk.resources("AWS::IAM::User")
	some key in ["Policies", "ManagedPolicyArns"]
	count(object.get(user, key, [])) > 0
	info := {"resource": user, "result_tag": key, "message": sprintf("The user has %s of its own.", [key]), "attributes": [[key]]}
}

deny contains info if {
	some type in policy_types
	some policy in snyk.resources(type)
	count(object.get(policy, "Users", [])) > 0
	info := {"resource": policy, "result_tag": "Users", "message": "The policy is attached to users.", "attributes": [["Users"]]}
}

resources contains {"resource": user, "result_tag": key} if {
	some user in snyk.resources("AWS::IAM::User")
	some key in ["Policies", "ManagedPolicyArns"]
}

resources contains {"resource": policy, "result_tag": "Users"} if {
	some type in policy_types
	some policy in snyk.resources(type)
}
