package rules.cfn_iam_user_policies_test

import data.rules.cfn_iam_user_policies as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::IAM::User": {
			"GroupMember": {"attributes": {"Groups": ["Developers"]}},
			"Direct": {"attributes": {"ManagedPolicyArns": ["arn:aws:iam::aws:policy/ReadOnlyAccess"]}},
		},
		"AWS::IAM::Policy": {"ForRole": {"attributes": {"Roles": ["AppRole"], "PolicyName": "app"}}},
		"AWS::IAM::ManagedPolicy": {"ForUser": {"attributes": {"Users": ["Direct"]}}},
	},
}

test_user_attached_policies_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["Direct", "ManagedPolicyArns"], ["ForUser", "Users"]}
	count(rule.resources) == 6 with input as state
}
