# Single-resource rule, Rego v1 (no rego.v1 import), CloudFormation input.
package rules.cfn_s3_encryption

resource_type := "AWS::S3::Bucket"

input_type := "cfn"

metadata := {
	"id": "SNYK-CC-CFN-S3-2",
	"title": "S3 bucket has no default encryption",
	"description": "Objects written without default encryption are stored in plaintext.",
	"platform": ["AWS"],
	"remediation": {"cloudformation": "Add `BucketEncryption.ServerSideEncryptionConfiguration` with `SSEAlgorithm: aws:kms`."},
	"service_group": "S3",
	"severity": "High",
}

algorithms := {"AES256", "aws:kms", "aws:kms:dsse"}

encrypted if {
	some cfg in input.BucketEncryption.ServerSideEncryptionConfiguration
	cfg.ServerSideEncryptionByDefault.SSEAlgorithm in algorithms
}

deny contains info if {
	not encrypted
	info := {
		"message": sprintf("Bucket %s has no BucketEncryption with a supported SSEAlgorithm", [object.get(input, "BucketName", input.id)]),
		"attributes": [["BucketEncryption"]],
	}
}
