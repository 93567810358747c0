# Lambda functions are not invocable by anyone: no AWS::Lambda::Permission
# grants "*", or a service principal without SourceArn/SourceAccount.
package rules.cfn_lambda_public

import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-007",
	"title": "Lambda functions are not invocable by any account",
	"description": "An AWS::Lambda::Permission with Principal \"*\" lets anyone invoke the function (for a function URL with FunctionUrlAuthType NONE, without signing the request). A service principal without SourceArn or SourceAccount lets the service invoke it on behalf of any account.",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "Lambda",
	"severity": "high",
	"remediation": {
		"cloudformation": "Give the AWS::Lambda::Permission a specific Principal, use FunctionUrlAuthType AWS_IAM for function URLs, and set SourceArn and SourceAccount for service principals.",
		"console": "In the function's Configuration > Permissions, remove public statements from the resource-based policy.",
	},
	"references": [
		"https://docs.aws.amazon.com/lambda/latest/dg/access-control-resource-based.html",
		"https://docs.aws.amazon.com/lambda/latest/dg/urls-auth.html",
	],
}

problem(p) := "grants invocation to any principal" if p.Principal == "*"

problem(p) := sprintf("lets %s invoke the function for any source", [p.Principal]) if {
	endswith(p.Principal, ".amazonaws.com")
	not p.SourceArn
	not p.SourceAccount
}

deny contains info if {
	some function in snyk.resources("AWS::Lambda::Function")
	some p in snyk.relates(function, "AWS::Lambda::Function.Permission")
	info := {
		"primary_resource": function,
		"resource": p,
		"result_tag": p._id,
		"message": sprintf("Permission %s %s.", [p._id, problem(p)]),
		"attributes": [["Principal"]],
	}
}

resources contains info if {
	some function in snyk.resources("AWS::Lambda::Function")
	some p in snyk.relates(function, "AWS::Lambda::Function.Permission")
	info := {"primary_resource": function, "resource": p, "result_tag": p._id}
}
