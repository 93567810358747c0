# Multi-resource rule (snyk API, Rego v1): every bucket needs an encryption configuration.
# The join is the shipped relation aws_s3_bucket.server_side_encryption_configuration
# (rego/relations/aws/s3.rego): no nested loop, and no object keyed by bucket name
# that would break on two configurations for one bucket.
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

encryption := "aws_s3_bucket.server_side_encryption_configuration"

deny contains info if {
	some bucket in buckets
	count(snyk.relates(bucket, encryption)) == 0
	info := {"resource": bucket, "message": "The bucket has no encryption configuration."}
}

resources contains info if {
	some bucket in buckets
	info := {"resource": bucket}
}

resources contains info if {
	some bucket in buckets
	some config in snyk.relates(bucket, encryption)
	info := {"primary_resource": bucket, "resource": config, "attributes": [["rule"]]}
}
