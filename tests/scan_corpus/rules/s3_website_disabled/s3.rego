# Multi-resource rule, Rego v0, no input_type: dispatches on snyk.input_type
# and snyk.input_resource_types to read Terraform or CloudFormation buckets.
package rules.s3_website_disabled

import data.snyk

resource_type := "MULTIPLE"

metadata := {
	"id": "SNYK-CC-S3-WEBSITE",
	"title": "S3 bucket has static website hosting enabled",
	"description": "Website endpoints serve objects over plain HTTP to anonymous clients; prefer CloudFront with origin access control.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "Remove the `website` block (or the aws_s3_bucket_website_configuration resource).",
		"cloudformation": "Remove `WebsiteConfiguration` from the bucket.",
	},
	"service_group": "S3",
	"severity": "Low",
}

tf_family := {"tf_hcl", "tf_plan", "tf_state", "cloud_scan"}

buckets[bucket] {
	tf_family[snyk.input_type]
	snyk.input_resource_types["aws_s3_bucket"]
	bucket := snyk.resources("aws_s3_bucket")[_]
}

buckets[bucket] {
	snyk.input_type == "cfn"
	snyk.input_resource_types["AWS::S3::Bucket"]
	bucket := snyk.resources("AWS::S3::Bucket")[_]
}

website_attribute(bucket) = "website" {
	count(object.get(bucket, "website", [])) > 0
}

website_attribute(bucket) = "WebsiteConfiguration" {
	is_object(bucket.WebsiteConfiguration)
}

deny[info] {
	bucket := buckets[_]
	attr := website_attribute(bucket)
	info := {
		"resource": bucket,
		"message": sprintf("Bucket %s enables static website hosting (%s input)", [bucket.id, snyk.input_type]),
		"attributes": [[attr]],
	}
}

resources[info] {
	bucket := buckets[_]
	info := {"resource": bucket}
}
