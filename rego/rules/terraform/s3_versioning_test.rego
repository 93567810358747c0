package rules.tf_aws_s3_versioning_test

import data.rules.tf_aws_s3_versioning as rule

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.inline": {"attributes": {"bucket": "inline", "versioning": [{"enabled": true}]}},
			"aws_s3_bucket.separate": {"attributes": {"bucket": "separate"}},
			"aws_s3_bucket.suspended": {"attributes": {"bucket": "suspended"}},
			"aws_s3_bucket.none": {"attributes": {"bucket": "none", "versioning": [{"enabled": false}]}},
		},
		"aws_s3_bucket_versioning": {
			"aws_s3_bucket_versioning.separate": {"attributes": {"bucket": "aws_s3_bucket.separate", "versioning_configuration": [{"status": "Enabled"}]}},
			"aws_s3_bucket_versioning.suspended": {"attributes": {"bucket": "suspended", "versioning_configuration": [{"status": "Suspended"}]}},
		},
	},
}

test_unversioned_buckets_fail {
	denied := {id | id := rule.deny[_].resource._id} with input as state
	denied == {"aws_s3_bucket.suspended", "aws_s3_bucket.none"}
}
