# Multi-resource rule (snyk API, Rego v1): every bucket needs an encryption configuration.
package rules.example_s3_encryption

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "EXAMPLE_001",
	"title": "S3 buckets are encrypted at rest",
	"description": "Every aws_s3_bucket has a server-side encryption configuration.",
	"platform": ["AWS"],
	"severity": "High",
	"remediation": {
		"terraform": "Add an aws_s3_bucket_server_side_encryption_configuration for the bucket.",
		"console": "Enable default encryption in the bucket's properties.",
	},
}

buckets := snyk.resources("aws_s3_bucket")

configs := snyk.resources("aws_s3_bucket_server_side_encryption_configuration")

configs_by_bucket := {c.bucket: c | some c in configs}

deny contains info if {
	some bucket in buckets
	not configs_by_bucket[bucket.bucket]
	info := {"resource": bucket, "message": "The bucket has no encryption configuration."}
}

resources contains info if {
	some bucket in buckets
	info := {"resource": bucket}
}

resources contains info if {
	some bucket in buckets
	config := configs_by_bucket[bucket.bucket]
	info := {"primary_resource": bucket, "resource": config, "attributes": [["rule"]]}
}
