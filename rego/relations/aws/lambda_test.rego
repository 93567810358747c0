package relations_test.aws.lambda

import data.snyk
import rego.v1

state := {
	"input_type": "tf_plan",
	"resources": {
		"aws_lambda_function": {
			"aws_lambda_function.api": {"attributes": {"function_name": "api"}},
			"aws_lambda_function.worker": {"attributes": {"function_name": "worker"}},
		},
		"aws_lambda_permission": {
			"aws_lambda_permission.apigw": {"attributes": {"function_name": "aws_lambda_function.api", "principal": "apigateway.amazonaws.com"}},
			"aws_lambda_permission.s3": {"attributes": {"function_name": "worker", "principal": "s3.amazonaws.com"}},
		},
	},
}

permissions(id) := {p._id |
	some f in snyk.resources("aws_lambda_function")
	f._id == id
	some p in snyk.relates(f, "aws_lambda_function.permission")
}

test_permissions_by_address_and_name if {
	permissions("aws_lambda_function.api") == {"aws_lambda_permission.apigw"} with input as state
	permissions("aws_lambda_function.worker") == {"aws_lambda_permission.s3"} with input as state
}
