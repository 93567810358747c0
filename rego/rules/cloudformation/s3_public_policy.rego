# S3 bucket policies do not allow everyone, unless the bucket restricts public
# buckets: one result per public statement.
package rules.cfn_s3_public_policy

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-002",
	"title": "S3 bucket policies do not allow any principal",
	"description": "An AWS::S3::BucketPolicy statement that allows Principal \"*\" without a condition makes the bucket public, unless the bucket's PublicAccessBlockConfiguration sets RestrictPublicBuckets.",
	"platform": ["AWS"],
	"category": "Access control",
	"service_group": "S3",
	"severity": "critical",
	"remediation": {
		"cloudformation": "Name specific principals in the policy's Allow statements (or add a Condition such as aws:PrincipalOrgID), and set RestrictPublicBuckets in the bucket's PublicAccessBlockConfiguration.",
		"console": "Edit the bucket policy to remove public statements and turn on Block public access.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html#access-control-block-public-access-policy-status",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-s3-bucketpolicy.html",
	],
}

deny contains info if {
	some bucket in snyk.resources("AWS::S3::Bucket")
	not aws.cfn_true(object.get(bucket, ["PublicAccessBlockConfiguration", "RestrictPublicBuckets"], false))
	some policy in snyk.relates(bucket, "AWS::S3::Bucket.BucketPolicy")
	some [i, s] in aws.statements(policy.PolicyDocument)
	aws.public_statement(s)
	tag := aws.statement_tag(i, s)
	info := {
		"primary_resource": bucket,
		"resource": policy,
		"result_tag": tag,
		"message": sprintf("%s allows any principal to use the bucket.", [tag]),
		"attributes": [["PolicyDocument", "Statement"]],
	}
}

resources contains info if {
	some bucket in snyk.resources("AWS::S3::Bucket")
	some policy in snyk.relates(bucket, "AWS::S3::Bucket.BucketPolicy")
	some [i, s] in aws.statements(policy.PolicyDocument)
	info := {"primary_resource": bucket, "resource": policy, "result_tag": aws.statement_tag(i, s)}
}
