package rules.tf_aws_s3_logging_test

import data.rules.tf_aws_s3_logging as rule

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.logs": {"attributes": {"bucket": "acme-logs"}},
			"aws_s3_bucket.inline": {"attributes": {"bucket": "inline", "logging": [{"target_bucket": "acme-logs"}]}},
			"aws_s3_bucket.separate": {"attributes": {"bucket": "separate"}},
			"aws_s3_bucket.silent": {"attributes": {"bucket": "silent"}},
		},
		"aws_s3_bucket_logging": {"aws_s3_bucket_logging.separate": {"attributes": {"bucket": "aws_s3_bucket.separate", "target_bucket": "aws_s3_bucket.logs"}}},
	},
}

test_only_the_silent_bucket_fails {
	denied := {id | id := rule.deny[_].resource._id} with input as state
	denied == {"aws_s3_bucket.silent"}
}

test_every_bucket_has_a_result {
	count(rule.resources) == 4 with input as state
}
