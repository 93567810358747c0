# Lambda functions and the resource-based permissions granted on them. A
# permission names its function by name, ARN or (in configuration) the
# address a reference renders as.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_lambda_function.permission",
	{"aws_lambda_function": ["id", "function_name", "arn"]},
	{"aws_lambda_permission": ["function_name"]},
)
