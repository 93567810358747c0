# S3 buckets block public access: one result per PublicAccessBlockConfiguration
# setting.
package rules.cfn_s3_public_access_block

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-001",
	"title": "S3 buckets block public access",
	"description": "A bucket's PublicAccessBlockConfiguration overrides ACLs and bucket policies that would make it public. BlockPublicAcls, BlockPublicPolicy, IgnorePublicAcls and RestrictPublicBuckets should all be true.",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "S3",
	"severity": "high",
	"remediation": {
		"cloudformation": "Set PublicAccessBlockConfiguration with BlockPublicAcls, BlockPublicPolicy, IgnorePublicAcls and RestrictPublicBuckets all true on the AWS::S3::Bucket.",
		"console": "In the bucket's Permissions, edit Block public access and turn on all four settings.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-s3-bucket-publicaccessblockconfiguration.html",
	],
}

settings := ["BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"]

deny contains info if {
	some bucket in snyk.resources("AWS::S3::Bucket")
	some setting in settings
	not aws.cfn_true(object.get(bucket, ["PublicAccessBlockConfiguration", setting], false))
	info := {
		"resource": bucket,
		"result_tag": setting,
		"message": sprintf("PublicAccessBlockConfiguration.%s is not true.", [setting]),
		"attributes": [["PublicAccessBlockConfiguration", setting]],
	}
}

resources contains {"resource": bucket, "result_tag": setting} if {
	some bucket in snyk.resources("AWS::S3::Bucket")
	some setting in settings
}
