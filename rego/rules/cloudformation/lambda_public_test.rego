package rules.cfn_lambda_public_test

import data.rules.cfn_lambda_public as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::Lambda::Function": {"Api": {"attributes": {}}},
		"AWS::Lambda::Permission": {
			"Url": {"attributes": {"FunctionName": "Api", "Principal": "*", "FunctionUrlAuthType": "NONE"}},
			"Sns": {"attributes": {"FunctionName": "Api", "Principal": "sns.amazonaws.com"}},
			"S3": {"attributes": {"FunctionName": "Api", "Principal": "s3.amazonaws.com", "SourceArn": "Uploads"}},
		},
	},
}

test_public_permissions_fail if {
	{i.result_tag | some i in rule.deny} == {"Url", "Sns"} with input as state
	count(rule.resources) == 3 with input as state
}
