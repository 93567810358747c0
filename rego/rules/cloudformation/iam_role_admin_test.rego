package rules.cfn_iam_role_admin_test

import data.rules.cfn_iam_role_admin as rule

admin := {"Statement": [{"Effect": "Allow", "Action": ["*"], "Resource": "*"}]}

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::IAM::Role": {
			"Managed": {"attributes": {"ManagedPolicyArns": ["arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::aws:policy/AdministratorAccess"]}},
			"Inline": {"attributes": {"Policies": [{"PolicyName": "all", "PolicyDocument": admin}]}},
			"Attached": {"attributes": {"RoleName": "attached-role"}},
			"Fine": {"attributes": {}},
		},
		"AWS::IAM::Policy": {"Everything": {"attributes": {"Roles": ["attached-role"], "PolicyDocument": admin}}},
		"AWS::IAM::ManagedPolicy": {"Read": {"attributes": {"Roles": ["Fine"], "PolicyDocument": {"Statement": {"Effect": "Allow", "Action": "s3:Get*", "Resource": "*"}}}}},
	},
}

test_admin_grants {
	failures := {[i.primary_resource._id, i.result_tag] | i := rule.deny[_]} with input as state
	failures == {["Managed", "ManagedPolicyArns[1]"], ["Inline", "Policies[0]"], ["Attached", "Everything"]}
}
