package rules.tf_aws_ec2_imdsv2_test

import data.rules.tf_aws_ec2_imdsv2 as rule

test_required_tokens_pass {
	count(rule.deny) == 0 with input as {"metadata_options": [{"http_tokens": "required"}]}
}

test_optional_tokens_fail {
	rule.deny[info] with input as {"metadata_options": [{"http_tokens": "optional"}]}
	info.attributes == [["metadata_options", 0, "http_tokens"]]
}

test_missing_options_fail {
	count(rule.deny) == 1 with input as {"ami": "ami-123"}
}
