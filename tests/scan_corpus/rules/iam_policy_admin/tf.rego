# Single-resource rule, Rego v0: parses the policy JSON string.
package rules.iam_policy_admin

resource_type := "aws_iam_policy"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-IAM-1",
	"title": "IAM policy grants full administrative privileges",
	"description": "A statement allowing Action \"*\" on Resource \"*\" grants every permission in the account.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Replace the wildcard statement with the specific actions and resources the principal needs."},
	"references": "https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege",
	"category": "IAM",
	"service_group": "IAM",
	"controls": ["CIS-AWS_v1.4.0_1.16"],
	"severity": "High",
}

document := json.unmarshal(input.policy)

statements[s] {
	is_array(document.Statement)
	s := document.Statement[_]
}

statements[s] {
	is_object(document.Statement)
	s := document.Statement
}

as_array(x) = [x] {
	not is_array(x)
}

as_array(x) = x {
	is_array(x)
}

deny[info] {
	s := statements[_]
	s.Effect == "Allow"
	as_array(s.Action)[_] == "*"
	as_array(s.Resource)[_] == "*"
	info := {
		"message": sprintf("IAM policy %s allows \"*\" on \"*\"", [input.name]),
		"attributes": [["policy"]],
		"severity": "Critical",
	}
}
