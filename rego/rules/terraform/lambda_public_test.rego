package rules.tf_aws_lambda_public_test

import data.rules.tf_aws_lambda_public as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_lambda_function": {"aws_lambda_function.api": {"attributes": {"function_name": "api"}}},
		"aws_lambda_permission": {
			"aws_lambda_permission.public": {"attributes": {"function_name": "aws_lambda_function.api", "principal": "*"}},
			"aws_lambda_permission.s3_any": {"attributes": {"function_name": "api", "principal": "s3.amazonaws.com"}},
			"aws_lambda_permission.s3_bucket": {"attributes": {"function_name": "api", "principal": "s3.amazonaws.com", "source_arn": "aws_s3_bucket.uploads"}},
			"aws_lambda_permission.account": {"attributes": {"function_name": "api", "principal": "111122223333"}},
		},
	},
}

test_public_permissions_fail if {
	{i.result_tag | some i in rule.deny} == {"aws_lambda_permission.public", "aws_lambda_permission.s3_any"} with input as state
	count(rule.resources) == 4 with input as state
}
