package rules.tf_aws_iam_admin_policy_test

import data.rules.tf_aws_iam_admin_policy as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_iam_policy": {
			"aws_iam_policy.admin": {"attributes": {"policy": json.marshal({"Statement": [
				{"Sid": "Read", "Effect": "Allow", "Action": ["s3:GetObject"], "Resource": "*"},
				{"Sid": "Everything", "Effect": "Allow", "Action": "*", "Resource": ["*"]},
			]})}},
			"aws_iam_policy.deny_all": {"attributes": {"policy": json.marshal({"Statement": {"Effect": "Deny", "Action": "*", "Resource": "*"}})}},
			"aws_iam_policy.unresolved": {"attributes": {"policy": "data.aws_iam_policy_document.x"}},
		},
		"aws_iam_role_policy": {"aws_iam_role_policy.inline": {"attributes": {"policy": json.marshal({"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})}}},
	},
}

test_admin_statements_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["aws_iam_policy.admin", "statement[Everything]"], ["aws_iam_role_policy.inline", "statement[0]"]}
}

test_every_statement_has_a_result if {
	count(rule.resources) == 4 with input as state
}
