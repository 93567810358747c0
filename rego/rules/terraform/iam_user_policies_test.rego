package rules.tf_aws_iam_user_policies_test

import data.rules.tf_aws_iam_user_policies as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"aws_iam_user_policy_attachment": {"aws_iam_user_policy_attachment.alice": {"attributes": {"user": "alice"}}},
	"aws_iam_policy_attachment": {
		"aws_iam_policy_attachment.groups": {"attributes": {"groups": ["ops"]}},
		"aws_iam_policy_attachment.users": {"attributes": {"users": ["bob"]}},
	},
}}

test_user_attachments_fail if {
	{i.resource._id | some i in rule.deny} == {"aws_iam_user_policy_attachment.alice", "aws_iam_policy_attachment.users"} with input as state
}
