package rules.cfn_s3_encryption_test

import data.rules.cfn_s3_encryption as rule
import rego.v1

test_encrypted_bucket_passes if {
	config := {"ServerSideEncryptionConfiguration": [{"ServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms"}}]}
	count(rule.deny) == 0 with input as {"BucketEncryption": config}
}

test_bucket_without_encryption_fails if {
	count(rule.deny) == 1 with input as {"BucketName": "logs"}
	count(rule.deny) == 1 with input as {"BucketEncryption": {"ServerSideEncryptionConfiguration": [{"BucketKeyEnabled": true}]}}
}
