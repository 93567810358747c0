# S3 bucket policies refuse requests that do not use TLS.
package rules.tf_aws_s3_tls_only

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-006",
	"title": "S3 bucket policies deny requests without TLS",
	"description": "S3 accepts plain HTTP requests unless the bucket policy denies them. A Deny statement on the condition aws:SecureTransport = false makes every request to the bucket use TLS.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "medium",
	"remediation": {
		"terraform": "Add to the bucket's aws_s3_bucket_policy a statement with Effect Deny, Principal \"*\", Action \"s3:*\", the bucket and its objects as Resource, and Condition {Bool = {\"aws:SecureTransport\" = \"false\"}}.",
		"console": "Edit the bucket policy in the bucket's Permissions and add the Deny statement on aws:SecureTransport.",
	},
	"references": ["https://docs.aws.amazon.com/AmazonS3/latest/userguide/security-best-practices.html#transit"],
}

denies_plain_http(s) if {
	s.Effect == "Deny"
	value := s.Condition.Bool["aws:SecureTransport"]
	lower(sprintf("%v", [value])) == "false"
}

policies(bucket) := [p | some p in array.concat([bucket], snyk.relates(bucket, "aws_s3_bucket.policy")); p.policy]

enforces_tls(bucket) if {
	some p in policies(bucket)
	some [_, s] in aws.statements(p.policy)
	denies_plain_http(s)
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not enforces_tls(bucket)
	info := {"resource": bucket, "message": "No bucket policy denies requests made without TLS (aws:SecureTransport)."}
}

resources contains {"resource": bucket} if some bucket in snyk.resources("aws_s3_bucket")

resources contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	some p in snyk.relates(bucket, "aws_s3_bucket.policy")
	info := {"primary_resource": bucket, "resource": p, "attributes": [["policy"]]}
}
