# S3 buckets keep object versions (Rego v0 syntax).
package rules.tf_aws_s3_versioning

import data.snyk

input_type := "tf"

metadata := {
	"id": "RE-AWS-004",
	"title": "S3 buckets have versioning enabled",
	"description": "Versioning keeps every version of every object, so objects overwritten or deleted by mistake or by an attacker can be recovered. It is configured inline (versioning block) or by an aws_s3_bucket_versioning resource whose status is Enabled.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "medium",
	"aliases": ["CKV_AWS_21", "aws-s3-enable-versioning"],
	"remediation": {
		"terraform": "Add an aws_s3_bucket_versioning for the bucket with versioning_configuration { status = \"Enabled\" }.",
		"console": "In the bucket's Properties, edit Bucket Versioning and choose Enable.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/Versioning.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_versioning",
	],
}

versioned(bucket) {
	bucket.versioning[_].enabled == true
}

versioned(bucket) {
	config := snyk.relates(bucket, "aws_s3_bucket.versioning")[_]
	config.versioning_configuration[_].status == "Enabled"
}

deny[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	not versioned(bucket)
	info := {"resource": bucket, "message": "Versioning is not enabled for the bucket."}
}

resources[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	info := {"resource": bucket}
}

resources[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	config := snyk.relates(bucket, "aws_s3_bucket.versioning")[_]
	info := {"primary_resource": bucket, "resource": config, "attributes": [["versioning_configuration"]]}
}
