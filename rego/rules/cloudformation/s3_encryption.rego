# S3 buckets state a default encryption in the template.
package rules.cfn_s3_encryption

import rego.v1

resource_type := "AWS::S3::Bucket"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-011",
	"title": "S3 buckets have default encryption",
	"description": "A bucket's BucketEncryption sets the algorithm (SSE-S3 or SSE-KMS) applied to objects written without their own encryption header; stating it in the template keeps the choice reviewable.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "high",
	"aliases": ["CKV_AWS_19"],
	"controls": ["CIS-AWS_v1.5.0_2.1.1"],
	"remediation": {"cloudformation": "Add BucketEncryption with a ServerSideEncryptionConfiguration rule whose ServerSideEncryptionByDefault sets SSEAlgorithm (AES256 or aws:kms)."},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/default-bucket-encryption.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-s3-bucket-bucketencryption.html",
	],
}

sets_algorithm(rule) if {
	is_string(rule.ServerSideEncryptionByDefault.SSEAlgorithm)
	rule.ServerSideEncryptionByDefault.SSEAlgorithm != ""
}

deny contains info if {
	not any_algorithm
	info := {"message": "The bucket has no BucketEncryption rule setting SSEAlgorithm.", "attributes": [["BucketEncryption"]]}
}

any_algorithm if {
	some rule in input.BucketEncryption.ServerSideEncryptionConfiguration
	sets_algorithm(rule)
}
