# The bucket a CloudTrail trail writes to is protected: it blocks public
# access and logs who reads it. One result per trail and protection.
package rules.tf_aws_cloudtrail_bucket

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-014",
	"title": "CloudTrail log buckets block public access and log access",
	"description": "CloudTrail logs describe every API call in the account. The bucket receiving them should have a public access block restricting public buckets and policies, and server access logging so that reads of the logs are themselves recorded.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "high",
	"remediation": {
		"terraform": "For the bucket named by the trail's s3_bucket_name, add an aws_s3_bucket_public_access_block with block_public_policy and restrict_public_buckets set to true, and an aws_s3_bucket_logging.",
		"console": "Turn on Block public access and Server access logging for the trail's bucket.",
	},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/best-practices-security.html",
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/create-s3-bucket-policy-for-cloudtrail.html",
	],
}

trail_buckets contains [trail, bucket] if {
	some trail in snyk.resources("aws_cloudtrail")
	some bucket in snyk.relates(trail, "aws_cloudtrail.s3_bucket")
}

blocks_public(bucket) if {
	some block in snyk.relates(bucket, "aws_s3_bucket.public_access_block")
	block.block_public_policy == true
	block.restrict_public_buckets == true
}

logged(bucket) if count(bucket.logging) > 0

logged(bucket) if count(snyk.relates(bucket, "aws_s3_bucket.logging")) > 0

# Result tag → what the bucket lacks.
problem := {"public_access_block": "does not block public policies", "logging": "has no server access logging"}

missing("public_access_block", bucket) if not blocks_public(bucket)

missing("logging", bucket) if not logged(bucket)

deny contains info if {
	some [trail, bucket] in trail_buckets
	some tag, _ in problem
	missing(tag, bucket)
	info := {
		"primary_resource": trail,
		"resource": bucket,
		"result_tag": tag,
		"message": sprintf("The trail's log bucket %s %s.", [bucket._id, problem[tag]]),
		"graph": [{"source": trail, "label": "logs to", "target": bucket}],
	}
}

resources contains info if {
	some [trail, bucket] in trail_buckets
	some tag, _ in problem
	info := {"primary_resource": trail, "resource": bucket, "result_tag": tag}
}
