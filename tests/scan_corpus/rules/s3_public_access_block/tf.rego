# Multi-resource rule, Rego v1 (no rego.v1 import): explicit correlation
# strings tie each bucket and its public access block into one result.
package rules.s3_public_access_block

import data.snyk

resource_type := "MULTIPLE"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-S3-005",
	"title": "S3 bucket public access block is incomplete",
	"description": "All four public access block settings should be enabled for buckets that are not meant to be public.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Add an aws_s3_bucket_public_access_block with all four flags set to true."},
	"service_group": "S3",
	"controls": ["CIS-AWS_v1.4.0_2.1.5"],
	"severity": "High",
}

flags := ["block_public_acls", "block_public_policy", "ignore_public_acls", "restrict_public_buckets"]

buckets := snyk.query({"resource_type": "aws_s3_bucket", "scope": {}})

blocks := snyk.query({"resource_type": "aws_s3_bucket_public_access_block", "scope": {}})

refers_to(ref, bucket) if ref == bucket.id

refers_to(ref, bucket) if ref == bucket._id

refers_to(ref, bucket) if ref == bucket.bucket

correlation_of(bucket) := sprintf("aws_s3_bucket/%s", [bucket._id])

has_block(bucket) if {
	some block in blocks
	refers_to(block.bucket, bucket)
}

resources contains info if {
	some bucket in buckets
	info := {"resource": bucket, "correlation": correlation_of(bucket)}
}

resources contains info if {
	some bucket in buckets
	some block in blocks
	refers_to(block.bucket, bucket)
	info := {"resource": block, "correlation": correlation_of(bucket)}
}

deny contains info if {
	some bucket in buckets
	not has_block(bucket)
	info := {
		"resource": bucket,
		"correlation": correlation_of(bucket),
		"message": sprintf("S3 bucket %s has no public access block", [object.get(bucket, "bucket", bucket.id)]),
	}
}

deny contains info if {
	some bucket in buckets
	some block in blocks
	refers_to(block.bucket, bucket)
	disabled := [f | some f in flags; object.get(block, f, false) != true]
	count(disabled) > 0
	info := {
		"resource": block,
		"correlation": correlation_of(bucket),
		"message": sprintf("Public access block of %s leaves %s disabled", [object.get(bucket, "bucket", bucket.id), concat(", ", disabled)]),
		"attributes": [[f] | some f in disabled],
	}
}
