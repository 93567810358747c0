# S3 buckets have default encryption, configured either inline (AWS provider
# v3: server_side_encryption_configuration block) or by a separate
# aws_s3_bucket_server_side_encryption_configuration (v4 and later).
package rules.tf_aws_s3_encryption

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-001",
	"title": "S3 buckets have default encryption",
	"description": "Objects written to an S3 bucket without an explicit encryption header are encrypted with the bucket's default; a bucket should state that default (SSE-S3 or SSE-KMS) in code, inline or through an aws_s3_bucket_server_side_encryption_configuration resource.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "high",
	"aliases": ["CKV_AWS_19", "aws-s3-enable-bucket-encryption"],
	"remediation": {
		"terraform": "Add an aws_s3_bucket_server_side_encryption_configuration whose bucket is the bucket's id, with a rule setting apply_server_side_encryption_by_default.sse_algorithm to \"aws:kms\" or \"AES256\".",
		"console": "In the bucket's Properties, edit Default encryption and choose SSE-S3 or SSE-KMS.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/default-bucket-encryption.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_server_side_encryption_configuration",
	],
}

encryption := "aws_s3_bucket.server_side_encryption_configuration"

# A rule block that sets an algorithm.
sets_algorithm(rule) if {
	some by_default in rule.apply_server_side_encryption_by_default
	is_string(by_default.sse_algorithm)
	by_default.sse_algorithm != ""
}

inline_encrypted(bucket) if {
	some config in bucket.server_side_encryption_configuration
	some rule in config.rule
	sets_algorithm(rule)
}

configured(bucket) if {
	some config in snyk.relates(bucket, encryption)
	some rule in config.rule
	sets_algorithm(rule)
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not inline_encrypted(bucket)
	not configured(bucket)
	info := {"resource": bucket, "message": "The bucket has no default encryption configuration."}
}

resources contains {"resource": bucket} if some bucket in snyk.resources("aws_s3_bucket")

resources contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	some config in snyk.relates(bucket, encryption)
	info := {"primary_resource": bucket, "resource": config, "attributes": [["rule"]]}
}
