package rules.tf_aws_iam_instance_admin_test

import data.rules.tf_aws_iam_instance_admin as rule

admin_doc := json.marshal({"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_instance": {
			"aws_instance.managed": {"attributes": {"iam_instance_profile": "aws_iam_instance_profile.managed"}},
			"aws_instance.customer": {"attributes": {"iam_instance_profile": "customer"}},
			"aws_instance.inline": {"attributes": {"iam_instance_profile": "aws_iam_instance_profile.inline"}},
			"aws_instance.fine": {"attributes": {"iam_instance_profile": "aws_iam_instance_profile.fine"}},
			"aws_instance.none": {"attributes": {}},
		},
		"aws_iam_instance_profile": {
			"aws_iam_instance_profile.managed": {"attributes": {"name": "managed", "role": "managed"}},
			"aws_iam_instance_profile.customer": {"attributes": {"name": "customer", "role": "aws_iam_role.customer"}},
			"aws_iam_instance_profile.inline": {"attributes": {"name": "inline", "role": "inline"}},
			"aws_iam_instance_profile.fine": {"attributes": {"name": "fine", "role": "fine"}},
		},
		"aws_iam_role": {
			"aws_iam_role.managed": {"attributes": {"name": "managed"}},
			"aws_iam_role.customer": {"attributes": {"name": "customer"}},
			"aws_iam_role.inline": {"attributes": {"name": "inline"}},
			"aws_iam_role.fine": {"attributes": {"name": "fine"}},
		},
		"aws_iam_role_policy_attachment": {
			"aws_iam_role_policy_attachment.managed": {"attributes": {"role": "managed", "policy_arn": "arn:aws:iam::aws:policy/AdministratorAccess"}},
			"aws_iam_role_policy_attachment.customer": {"attributes": {"role": "customer", "policy_arn": "aws_iam_policy.everything"}},
			"aws_iam_role_policy_attachment.fine": {"attributes": {"role": "fine", "policy_arn": "arn:aws:iam::aws:policy/ReadOnlyAccess"}},
		},
		"aws_iam_policy": {"aws_iam_policy.everything": {"attributes": {"policy": admin_doc}}},
		"aws_iam_role_policy": {"aws_iam_role_policy.inline": {"attributes": {"role": "aws_iam_role.inline", "policy": admin_doc}}},
	},
}

test_admin_roles_through_each_path {
	failures := {[i.primary_resource._id, i.resource._id] | i := rule.deny[_]} with input as state
	failures == {
		["aws_instance.managed", "aws_iam_role_policy_attachment.managed"],
		["aws_instance.customer", "aws_iam_policy.everything"],
		["aws_instance.inline", "aws_iam_role_policy.inline"],
	}
}

test_every_instance_has_a_result {
	count(rule.resources) == 5 with input as state
}
