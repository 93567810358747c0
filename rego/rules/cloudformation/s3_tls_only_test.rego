package rules.cfn_s3_tls_only_test

import data.rules.cfn_s3_tls_only as rule

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::S3::Bucket": {"Secure": {"attributes": {}}, "Plain": {"attributes": {}}},
		"AWS::S3::BucketPolicy": {"SecurePolicy": {"attributes": {"Bucket": "Secure", "PolicyDocument": {"Statement": [{
			"Effect": "Deny", "Principal": "*", "Action": "s3:*", "Resource": "*",
			"Condition": {"Bool": {"aws:SecureTransport": false}},
		}]}}}},
	},
}

test_bucket_without_tls_policy_fails {
	denied := {id | id := rule.deny[_].resource._id} with input as state
	denied == {"Plain"}
}
