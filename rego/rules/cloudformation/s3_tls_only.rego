# S3 buckets have a bucket policy denying requests without TLS (Rego v0).
package rules.cfn_s3_tls_only

import data.shipped_lib.aws
import data.snyk

input_type := "cfn"

metadata := {
	"id": "RE-CFN-003",
	"title": "S3 bucket policies deny requests without TLS",
	"description": "S3 accepts plain HTTP requests unless a bucket policy denies them. An AWS::S3::BucketPolicy for the bucket should Deny every action when aws:SecureTransport is false.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "medium",
	"remediation": {
		"cloudformation": "Add an AWS::S3::BucketPolicy for the bucket with a Deny statement for Principal \"*\" and Action s3:* under Condition Bool aws:SecureTransport false.",
		"console": "Edit the bucket policy in the bucket's Permissions and add the Deny statement on aws:SecureTransport.",
	},
	"references": ["https://docs.aws.amazon.com/AmazonS3/latest/userguide/security-best-practices.html#transit"],
}

enforces_tls(bucket) {
	policy := snyk.relates(bucket, "AWS::S3::Bucket.BucketPolicy")[_]
	s := aws.statements(policy.PolicyDocument)[_][1]
	s.Effect == "Deny"
	lower(sprintf("%v", [s.Condition.Bool["aws:SecureTransport"]])) == "false"
}

deny[info] {
	bucket := snyk.resources("AWS::S3::Bucket")[_]
	not enforces_tls(bucket)
	info := {"resource": bucket, "message": "No bucket policy denies requests made without TLS (aws:SecureTransport)."}
}

resources[info] {
	bucket := snyk.resources("AWS::S3::Bucket")[_]
	info := {"resource": bucket}
}
