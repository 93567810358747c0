# S3 buckets require MFA to delete object versions or suspend versioning.
package rules.tf_aws_s3_mfa_delete

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-031",
	"title": "S3 buckets require MFA delete",
	"description": "With MFA delete, permanently deleting an object version or changing the bucket's versioning state needs the root user's MFA code as well as credentials, so stolen keys alone cannot destroy the version history. The rule reads the bucket's versioning block and the aws_s3_bucket_versioning naming it.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "low",
	"controls": ["CIS-AWS_v1.5.0_2.1.3"],
	"remediation": {"terraform": "In the aws_s3_bucket_versioning, set versioning_configuration { status = \"Enabled\" mfa_delete = \"Enabled\" } and mfa to the root user's device serial and code (applied with root credentials)."},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/MultiFactorAuthenticationDelete.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_versioning#mfa_delete",
	],
}

relation := "aws_s3_bucket.versioning"

mfa_delete(bucket) if {
	some versioning in object.get(bucket, "versioning", [])
	versioning.mfa_delete == true
}

mfa_delete(bucket) if {
	some config in snyk.relates(bucket, relation)
	some versioning in object.get(config, "versioning_configuration", [])
	versioning.mfa_delete == "Enabled"
}

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	not mfa_delete(bucket)
	info := {"resource": bucket, "message": "MFA delete is not enabled for the bucket."}
}

resources contains {"resource": bucket} if some bucket in snyk.resources("aws_s3_bucket")

resources contains {"primary_resource": bucket, "resource": config, "attributes": [["versioning_configuration"]]} if {
	some bucket in snyk.resources("aws_s3_bucket")
	some config in snyk.relates(bucket, relation)
}
