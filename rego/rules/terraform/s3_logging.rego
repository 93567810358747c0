# S3 buckets log server access (Rego v0 syntax). A bucket that is itself a
# log target is exempt: logging it to itself would loop.
package rules.tf_aws_s3_logging

import data.snyk

input_type := "tf"

metadata := {
	"id": "RE-AWS-005",
	"title": "S3 buckets have server access logging enabled",
	"description": "Server access logs record every request made to a bucket, which audits and incident response need. Logging is configured inline (logging block) or by an aws_s3_bucket_logging resource. Buckets that receive access logs are not required to log themselves.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "S3",
	"severity": "low",
	"aliases": ["CKV_AWS_18", "aws-s3-enable-bucket-logging"],
	"remediation": {
		"terraform": "Add an aws_s3_bucket_logging for the bucket with a target_bucket that collects access logs.",
		"console": "In the bucket's Properties, edit Server access logging and choose a target bucket.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerLogs.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_logging",
	],
}

logs(bucket) {
	count(bucket.logging[_].target_bucket) > 0
}

logs(bucket) {
	count(snyk.relates(bucket, "aws_s3_bucket.logging")) > 0
}

# Buckets named as a target by some logging configuration.
log_targets[name] {
	name := snyk.resources("aws_s3_bucket_logging")[_].target_bucket
}

log_targets[name] {
	name := snyk.resources("aws_s3_bucket")[_].logging[_].target_bucket
}

is_log_target(bucket) {
	log_targets[bucket.id]
}

is_log_target(bucket) {
	log_targets[bucket.bucket]
}

deny[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	not logs(bucket)
	not is_log_target(bucket)
	info := {"resource": bucket, "message": "Server access logging is not enabled for the bucket."}
}

resources[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	info := {"resource": bucket}
}
