package rules.tf_aws_s3_encryption_test

import data.rules.tf_aws_s3_encryption as rule
import rego.v1

aes := [{"apply_server_side_encryption_by_default": [{"sse_algorithm": "AES256"}]}]

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.inline": {"attributes": {"bucket": "inline", "server_side_encryption_configuration": [{"rule": aes}]}},
			"aws_s3_bucket.separate": {"attributes": {"bucket": "separate"}},
			"aws_s3_bucket.empty_rule": {"attributes": {"bucket": "empty-rule"}},
			"aws_s3_bucket.plain": {"attributes": {"bucket": "plain"}},
		},
		"aws_s3_bucket_server_side_encryption_configuration": {
			"aws_s3_bucket_server_side_encryption_configuration.separate": {"attributes": {"bucket": "aws_s3_bucket.separate", "rule": aes}},
			"aws_s3_bucket_server_side_encryption_configuration.empty_rule": {"attributes": {"bucket": "empty-rule", "rule": [{"bucket_key_enabled": true}]}},
		},
	},
}

test_unencrypted_buckets_fail if {
	{i.resource._id | some i in rule.deny} == {"aws_s3_bucket.plain", "aws_s3_bucket.empty_rule"} with input as state
}

test_every_bucket_has_a_result if {
	count({i.resource._id | some i in rule.resources; not i.primary_resource}) == 4 with input as state
	{i.primary_resource._id | some i in rule.resources; i.primary_resource} == {"aws_s3_bucket.separate", "aws_s3_bucket.empty_rule"} with input as state
}
