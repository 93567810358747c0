package rules.tf_aws_cloudtrail_bucket_test

import data.rules.tf_aws_cloudtrail_bucket as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_cloudtrail": {
			"aws_cloudtrail.good": {"attributes": {"s3_bucket_name": "aws_s3_bucket.guarded"}},
			"aws_cloudtrail.bad": {"attributes": {"s3_bucket_name": "open-trail"}},
		},
		"aws_s3_bucket": {
			"aws_s3_bucket.guarded": {"attributes": {"bucket": "guarded", "logging": [{"target_bucket": "access-logs"}]}},
			"aws_s3_bucket.open": {"attributes": {"bucket": "open-trail"}},
		},
		"aws_s3_bucket_public_access_block": {
			"aws_s3_bucket_public_access_block.guarded": {"attributes": {"bucket": "aws_s3_bucket.guarded", "block_public_policy": true, "restrict_public_buckets": true}},
			"aws_s3_bucket_public_access_block.open": {"attributes": {"bucket": "open-trail", "block_public_policy": true, "restrict_public_buckets": false}},
		},
	},
}

test_unprotected_trail_bucket if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["aws_cloudtrail.bad", "aws_s3_bucket.open", "public_access_block"],
		["aws_cloudtrail.bad", "aws_s3_bucket.open", "logging"],
	}
}

test_results_for_each_protection if {
	count(rule.resources) == 4 with input as state
}
