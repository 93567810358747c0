# S3 buckets have a public access block with all four settings on: one result
# per setting, or one for a bucket without any block.
package rules.tf_aws_s3_public_access_block

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-002",
	"title": "S3 buckets block public access",
	"description": "A bucket-level public access block overrides ACLs and bucket policies that would make objects public. Each of block_public_acls, block_public_policy, ignore_public_acls and restrict_public_buckets should be true.",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "S3",
	"severity": "high",
	"remediation": {
		"terraform": "Add an aws_s3_bucket_public_access_block for the bucket with block_public_acls, block_public_policy, ignore_public_acls and restrict_public_buckets set to true.",
		"console": "In the bucket's Permissions, edit Block public access and turn on all four settings.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_public_access_block",
	],
}

settings := ["block_public_acls", "block_public_policy", "ignore_public_acls", "restrict_public_buckets"]

block_relation := "aws_s3_bucket.public_access_block"

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	count(snyk.relates(bucket, block_relation)) == 0
	info := {
		"resource": bucket,
		"result_tag": "public_access_block",
		"message": "The bucket has no public access block.",
	}
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	some block in snyk.relates(bucket, block_relation)
	some setting in settings
	object.get(block, setting, false) != true
	info := {
		"primary_resource": bucket,
		"resource": block,
		"result_tag": setting,
		"message": sprintf("The bucket's public access block does not set %s.", [setting]),
		"attributes": [[setting]],
	}
}

resources contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	count(snyk.relates(bucket, block_relation)) == 0
	info := {"resource": bucket, "result_tag": "public_access_block"}
}

resources contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	some block in snyk.relates(bucket, block_relation)
	some setting in settings
	info := {"primary_resource": bucket, "resource": block, "result_tag": setting, "attributes": [[setting]]}
}
