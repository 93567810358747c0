# Lambda functions cannot be invoked by anyone: no resource-based permission
# grants a public principal, or a service principal without naming the
# source resource or account. One result per permission.
package rules.tf_aws_lambda_public

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-017",
	"title": "Lambda functions are not invocable by any account",
	"description": "An aws_lambda_permission with principal \"*\" lets anyone invoke the function. A service principal (such as s3.amazonaws.com) without source_arn or source_account lets that service invoke it on behalf of any account (the confused deputy problem).",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "Lambda",
	"severity": "high",
	"remediation": {
		"terraform": "Give the aws_lambda_permission a specific principal, and for service principals set source_arn (and source_account) to the resource allowed to invoke the function.",
		"console": "In the function's Configuration > Permissions, remove the resource-based policy statement for \"*\" or add a source ARN condition.",
	},
	"references": [
		"https://docs.aws.amazon.com/lambda/latest/dg/access-control-resource-based.html",
		"https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html",
	],
}

permission := "aws_lambda_function.permission"

problem(p) := "grants invocation to any principal" if p.principal == "*"

problem(p) := sprintf("lets %s invoke the function for any source", [p.principal]) if {
	endswith(p.principal, ".amazonaws.com")
	not p.source_arn
	not p.source_account
}

deny contains info if {
	some function in snyk.resources("aws_lambda_function")
	some p in snyk.relates(function, permission)
	info := {
		"primary_resource": function,
		"resource": p,
		"result_tag": p._id,
		"message": sprintf("Permission %s %s.", [p._id, problem(p)]),
		"attributes": [["principal"]],
	}
}

resources contains info if {
	some function in snyk.resources("aws_lambda_function")
	some p in snyk.relates(function, permission)
	info := {"primary_resource": function, "resource": p, "result_tag": p._id}
}
