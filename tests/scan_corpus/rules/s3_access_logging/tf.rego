# Multi-resource rule, Rego v1: `graph` edges from a bucket to the bucket that
# receives its access logs, and `context` objects on results.
package rules.s3_access_logging

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-S3-006",
	"title": "S3 bucket access logging is not configured correctly",
	"description": "Server access logs should go to a separate, dedicated log bucket.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Add an aws_s3_bucket_logging resource whose target_bucket is a dedicated log bucket."},
	"category": "Logging",
	"service_group": "S3",
	"controls": ["CIS-AWS_v1.4.0_3.6"],
	"severity": "low",
}

buckets := snyk.resources("aws_s3_bucket")

loggings := snyk.resources("aws_s3_bucket_logging")

refers_to(ref, bucket) if ref == bucket.id

refers_to(ref, bucket) if ref == bucket._id

refers_to(ref, bucket) if ref == bucket.bucket

name_of(bucket) := object.get(bucket, "bucket", bucket.id)

has_logging(bucket) if {
	some l in loggings
	refers_to(l.bucket, bucket)
}

is_log_target(bucket) if {
	some l in loggings
	refers_to(l.target_bucket, bucket)
}

# Every (bucket, logging configuration, target bucket) triple.
links contains [bucket, l, target] if {
	some bucket in buckets
	some l in loggings
	refers_to(l.bucket, bucket)
	some target in buckets
	refers_to(l.target_bucket, target)
}

resources contains {"resource": bucket} if some bucket in buckets

resources contains info if {
	some [bucket, l, target] in links
	info := {
		"resource": bucket,
		"graph": [{"source": bucket, "label": "logs_to", "target": target}],
		"context": {"target_bucket": name_of(target), "target_prefix": object.get(l, "target_prefix", "")},
	}
}

resources contains info if {
	some [bucket, l, _] in links
	info := {"resource": l, "primary_resource": bucket}
}

deny contains info if {
	some bucket in buckets
	not has_logging(bucket)
	not is_log_target(bucket)
	info := {
		"resource": bucket,
		"message": sprintf("S3 bucket %s has no access logging", [name_of(bucket)]),
		"context": {"bucket_name": name_of(bucket), "log_buckets": sort([name_of(b) | some b in buckets; is_log_target(b)])},
	}
}

deny contains info if {
	some [bucket, l, target] in links
	bucket._id == target._id
	info := {
		"resource": bucket,
		"message": sprintf("S3 bucket %s delivers its access logs to itself", [name_of(bucket)]),
		"graph": [{"source": bucket, "label": "logs_to", "target": target}],
		"context": {"target_prefix": object.get(l, "target_prefix", "")},
	}
}
