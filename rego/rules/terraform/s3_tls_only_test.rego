package rules.tf_aws_s3_tls_only_test

import data.rules.tf_aws_s3_tls_only as rule
import rego.v1

tls_policy := json.marshal({"Statement": [{
	"Effect": "Deny", "Principal": "*", "Action": "s3:*", "Resource": ["arn:aws:s3:::a", "arn:aws:s3:::a/*"],
	"Condition": {"Bool": {"aws:SecureTransport": "false"}},
}]})

other_policy := json.marshal({"Statement": {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:root"}, "Action": "s3:GetObject", "Resource": "*"}})

state := {
	"input_type": "tf_plan",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.a": {"attributes": {"bucket": "a"}},
			"aws_s3_bucket.b": {"attributes": {"bucket": "b"}},
			"aws_s3_bucket.c": {"attributes": {"bucket": "c", "policy": tls_policy}},
			"aws_s3_bucket.d": {"attributes": {"bucket": "d"}},
		},
		"aws_s3_bucket_policy": {
			"aws_s3_bucket_policy.a": {"attributes": {"bucket": "aws_s3_bucket.a", "policy": tls_policy}},
			"aws_s3_bucket_policy.b": {"attributes": {"bucket": "b", "policy": other_policy}},
		},
	},
}

test_buckets_without_a_tls_statement_fail if {
	{i.resource._id | some i in rule.deny} == {"aws_s3_bucket.b", "aws_s3_bucket.d"} with input as state
}
