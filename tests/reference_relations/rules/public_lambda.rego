# Rego v0 syntax: a function a permission lets anyone invoke.
package rules.public_lambda

import data.snyk

input_type := "cfn"

metadata := {"id": "REF-1", "title": "Lambda functions are not invocable by anyone", "severity": "high"}

deny[info] {
	fn := snyk.resources("AWS::Lambda::Function")[_]
	permission := snyk.back_relates("AWS::Lambda::Permission.FunctionName", fn)[_]
	permission.Principal == "*"
	info := {"resource": fn, "message": sprintf("%s lets anyone invoke it", [permission._id])}
}

resources[info] {
	fn := snyk.resources("AWS::Lambda::Function")[_]
	info := {"resource": fn}
}
