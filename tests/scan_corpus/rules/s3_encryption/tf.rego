# Multi-resource rule, Rego v1: buckets and their separate
# aws_s3_bucket_server_side_encryption_configuration resources. The bucket is
# the primary resource of each encryption configuration.
package rules.s3_encryption

import data.snyk
import rego.v1

resource_type := "MULTIPLE"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-S3-002",
	"title": "S3 bucket has no server-side encryption",
	"description": "Without default encryption, objects uploaded without encryption headers are stored unencrypted.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "Add an aws_s3_bucket_server_side_encryption_configuration resource for the bucket.",
		"cloudformation": "Add `BucketEncryption` to the bucket.",
		"kubernetes": "",
		"arm": "",
		"console": "Open the bucket in the S3 console, choose Properties > Default encryption and enable SSE-KMS.",
	},
	"references": "https://docs.aws.amazon.com/AmazonS3/latest/userguide/default-bucket-encryption.html",
	"category": "Data",
	"labels": ["S3", "encryption"],
	"service_group": "S3",
	"controls": ["CIS-AWS_v1.4.0_2.1.1", "HIPAA_v2013_164.312(a)(2)(iv)"],
	"severity": "High",
	"kind": "vulnerability",
}

buckets := snyk.resources("aws_s3_bucket")

configs := snyk.resources("aws_s3_bucket_server_side_encryption_configuration")

# Terraform references resolve to the bucket's logical id; a scan uses the name.
refers_to(ref, bucket) if ref == bucket.id

refers_to(ref, bucket) if ref == bucket._id

refers_to(ref, bucket) if ref == bucket.bucket

configures_encryption(config) if {
	some rule in config.rule
	some by_default in rule.apply_server_side_encryption_by_default
	by_default.sse_algorithm != ""
}

encrypted(bucket) if {
	some config in configs
	refers_to(config.bucket, bucket)
	configures_encryption(config)
}

# The pre-4.0 provider's inline block.
encrypted(bucket) if {
	some block in object.get(bucket, "server_side_encryption_configuration", [])
	count(block.rule) > 0
}

deny contains info if {
	some bucket in buckets
	not encrypted(bucket)
	info := {
		"resource": bucket,
		"message": sprintf("S3 bucket %s has no server-side encryption configuration", [object.get(bucket, "bucket", bucket.id)]),
	}
}

resources contains info if {
	some bucket in buckets
	info := {"resource": bucket}
}

resources contains info if {
	some config in configs
	some bucket in buckets
	refers_to(config.bucket, bucket)
	info := {
		"resource": config,
		"primary_resource": bucket,
		"attributes": [["rule", 0, "apply_server_side_encryption_by_default", 0, "sse_algorithm"]],
	}
}
