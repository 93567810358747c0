package relations_test.aws.iam

import data.snyk
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_iam_role": {
			"aws_iam_role.app": {"attributes": {"name": "app"}},
			"aws_iam_role.ci": {"attributes": {"name": "ci"}},
		},
		"aws_iam_policy": {"aws_iam_policy.read": {"attributes": {"name": "read"}}},
		"aws_iam_role_policy_attachment": {
			"aws_iam_role_policy_attachment.admin": {"attributes": {"role": "ci", "policy_arn": "arn:aws:iam::aws:policy/AdministratorAccess"}},
			"aws_iam_role_policy_attachment.read": {"attributes": {"role": "app", "policy_arn": "aws_iam_policy.read"}},
		},
		"aws_iam_role_policy": {"aws_iam_role_policy.inline": {"attributes": {"role": "aws_iam_role.app"}}},
		"aws_iam_instance_profile": {"aws_iam_instance_profile.app": {"attributes": {"role": "app"}}},
		"aws_instance": {"aws_instance.app": {"attributes": {"iam_instance_profile": "aws_iam_instance_profile.app"}}},
	},
}

one(type, id) := r if {
	some r in snyk.resources(type)
	r._id == id
}

ids(rs) := {r._id | some r in rs}

test_role_attachments if {
	ids(snyk.relates(one("aws_iam_role", "aws_iam_role.ci"), "aws_iam_role.policy_attachment")) == {"aws_iam_role_policy_attachment.admin"} with input as state
	ids(snyk.relates(one("aws_iam_role", "aws_iam_role.app"), "aws_iam_role.policy_attachment")) == {"aws_iam_role_policy_attachment.read"} with input as state
	ids(snyk.relates(one("aws_iam_role", "aws_iam_role.app"), "aws_iam_role.policy")) == {"aws_iam_role_policy.inline"} with input as state
}

test_instance_to_role if {
	profile := snyk.relates(one("aws_instance", "aws_instance.app"), "aws_instance.iam_instance_profile")[0] with input as state
	profile._id == "aws_iam_instance_profile.app"
	ids(snyk.relates(profile, "aws_iam_instance_profile.role")) == {"aws_iam_role.app"} with input as state
}

test_attachment_to_customer_policy if {
	ids(snyk.relates(one("aws_iam_role_policy_attachment", "aws_iam_role_policy_attachment.read"), "aws_iam_role_policy_attachment.policy")) == {"aws_iam_policy.read"} with input as state
	ids(snyk.relates(one("aws_iam_role_policy_attachment", "aws_iam_role_policy_attachment.admin"), "aws_iam_role_policy_attachment.policy")) == set() with input as state
}
