package rules.tf_aws_s3_mfa_delete_test

import data.rules.tf_aws_s3_mfa_delete as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.legacy": {"attributes": {"bucket": "legacy", "versioning": [{"enabled": true, "mfa_delete": true}]}},
			"aws_s3_bucket.guarded": {"attributes": {"bucket": "guarded"}},
			"aws_s3_bucket.versioned": {"attributes": {"bucket": "versioned"}},
		},
		"aws_s3_bucket_versioning": {
			"aws_s3_bucket_versioning.guarded": {"attributes": {"bucket": "aws_s3_bucket.guarded", "versioning_configuration": [{"status": "Enabled", "mfa_delete": "Enabled"}]}},
			"aws_s3_bucket_versioning.versioned": {"attributes": {"bucket": "aws_s3_bucket.versioned", "versioning_configuration": [{"status": "Enabled"}]}},
		},
	},
}

test_buckets_without_mfa_delete_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"aws_s3_bucket.versioned"}
	count(rule.resources) == 5 with input as state
}
