# The bucket a CloudTrail trail writes to is protected: it blocks public
# access and logs who reads it. One result per trail and protection.
package rules.cfn_cloudtrail_bucket

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-021",
	"title": "CloudTrail log buckets block public access and log access",
	"description": "CloudTrail logs describe every API call in the account. The bucket receiving them should block public policies and public buckets, and log access to itself so that reads of the logs are recorded too. The rule follows the trail's S3BucketName to a bucket of the same template.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "high",
	"controls": ["CIS-AWS_v1.5.0_3.3", "CIS-AWS_v1.5.0_3.6"],
	"remediation": {"cloudformation": "On the AWS::S3::Bucket the trail's S3BucketName names, set PublicAccessBlockConfiguration.BlockPublicPolicy and RestrictPublicBuckets to true and add a LoggingConfiguration with a DestinationBucketName."},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/create-s3-bucket-policy-for-cloudtrail.html",
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerLogs.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-s3-bucket-loggingconfig.html",
	],
}

trail_buckets contains [trail, bucket] if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	some bucket in snyk.relates(trail, "AWS::CloudTrail::Trail.S3Bucket")
}

blocks_public(bucket) if {
	every setting in ["BlockPublicPolicy", "RestrictPublicBuckets"] {
		aws.cfn_true(object.get(bucket, ["PublicAccessBlockConfiguration", setting], false))
	}
}

logged(bucket) if is_object(bucket.LoggingConfiguration)

# Result tag → what the bucket lacks.
problem := {"PublicAccessBlockConfiguration": "does not block public policies", "LoggingConfiguration": "has no server access logging"}

missing("PublicAccessBlockConfiguration", bucket) if not blocks_public(bucket)

missing("LoggingConfiguration", bucket) if not logged(bucket)

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
