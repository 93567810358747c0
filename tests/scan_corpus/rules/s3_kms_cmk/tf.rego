# Multi-resource rule, Rego v0: primary_resource in deny and resources;
# snyk.query with an empty scope.
package rules.s3_kms_cmk

import data.snyk

resource_type := "MULTIPLE"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-S3-009",
	"title": "S3 bucket is not encrypted with a KMS key",
	"description": "SSE-S3 (AES256) keys are managed by AWS; SSE-KMS lets you control, audit and revoke key usage.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Set `sse_algorithm = \"aws:kms\"` and `kms_master_key_id` in the encryption configuration."},
	"service_group": "S3",
	"controls": ["ACME-Crypto_v1_2.3"],
	"severity": "medium",
}

buckets := snyk.query({"resource_type": "aws_s3_bucket", "scope": {}})

configs := snyk.query({"resource_type": "aws_s3_bucket_server_side_encryption_configuration", "scope": {}})

refers_to(ref, bucket) {
	ref == bucket.id
}

refers_to(ref, bucket) {
	ref == bucket._id
}

refers_to(ref, bucket) {
	ref == bucket.bucket
}

algorithm(config) = a {
	a := config.rule[0].apply_server_side_encryption_by_default[0].sse_algorithm
}

deny[info] {
	config := configs[_]
	bucket := buckets[_]
	refers_to(config.bucket, bucket)
	algorithm(config) != "aws:kms"
	info := {
		"resource": config,
		"primary_resource": bucket,
		"message": sprintf("S3 bucket %s is encrypted with %s instead of a KMS key", [bucket.bucket, algorithm(config)]),
		"attributes": [["rule", 0, "apply_server_side_encryption_by_default", 0, "sse_algorithm"]],
	}
}

resources[info] {
	config := configs[_]
	bucket := buckets[_]
	refers_to(config.bucket, bucket)
	info := {"resource": config, "primary_resource": bucket}
}
