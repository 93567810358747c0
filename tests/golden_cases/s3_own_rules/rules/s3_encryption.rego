# Multi-resource rule over the snyk API and a shipped relation (v1 syntax).
package rules.s3_encryption

import data.snyk
import rego.v1

metadata := {
	"id": "CORPUS_S3_1",
	"title": "S3 buckets are encrypted at rest",
	"severity": "high",
}

encrypted(bucket) if {
	count(snyk.relates(bucket, "aws_s3_bucket.server_side_encryption_configuration")) > 0
}

encrypted(bucket) if {
	count(bucket.server_side_encryption_configuration) > 0
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not encrypted(bucket)
	info := {
		"resource": bucket,
		"message": sprintf("bucket %s is not encrypted", [bucket.bucket]),
	}
}

resources contains {"resource": bucket} if {
	some bucket in snyk.resources("aws_s3_bucket")
}
