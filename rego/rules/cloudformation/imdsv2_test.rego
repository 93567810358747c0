package rules.cfn_imdsv2_test

import data.rules.cfn_imdsv2 as rule
import rego.v1

test_required_tokens_pass if {
	count(rule.deny) == 0 with input as {"LaunchTemplateData": {"MetadataOptions": {"HttpTokens": "required"}}}
}

test_optional_or_missing_tokens_fail if {
	count(rule.deny) == 1 with input as {"LaunchTemplateData": {"ImageId": "ami-123"}}
	count(rule.deny) == 1 with input as {"LaunchTemplateData": {"MetadataOptions": {"HttpTokens": "optional"}}}
}
