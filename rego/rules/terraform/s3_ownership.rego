# S3 buckets disable ACLs through object ownership (Rego v0 syntax).
package rules.tf_aws_s3_ownership

import data.snyk

input_type := "tf"

metadata := {
	"id": "RE-AWS-007",
	"title": "S3 buckets disable ACLs (BucketOwnerEnforced)",
	"description": "With object ownership set to BucketOwnerEnforced, ACLs are disabled and the bucket owner owns every object; access is then governed by policies alone, which are easier to audit than per-object ACLs.",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "S3",
	"severity": "low",
	"remediation": {
		"terraform": "Add an aws_s3_bucket_ownership_controls for the bucket with rule { object_ownership = \"BucketOwnerEnforced\" }.",
		"console": "In the bucket's Permissions, edit Object Ownership and choose ACLs disabled.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/about-object-ownership.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_ownership_controls",
	],
}

deny[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	count(snyk.relates(bucket, "aws_s3_bucket.ownership_controls")) == 0
	info := {"resource": bucket, "message": "The bucket has no ownership controls, so ACLs stay enabled."}
}

deny[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	controls := snyk.relates(bucket, "aws_s3_bucket.ownership_controls")[_]
	rule := controls.rule[i]
	rule.object_ownership != "BucketOwnerEnforced"
	info := {
		"primary_resource": bucket,
		"resource": controls,
		"message": sprintf("Object ownership is %s, not BucketOwnerEnforced.", [rule.object_ownership]),
		"attributes": [["rule", i, "object_ownership"]],
	}
}

resources[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	info := {"resource": bucket}
}
