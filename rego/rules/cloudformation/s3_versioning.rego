# S3 buckets keep object versions (single-resource rule, Rego v0,
# messages only).
package rules.cfn_s3_versioning

resource_type := "AWS::S3::Bucket"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-004",
	"title": "S3 buckets have versioning enabled",
	"description": "Versioning keeps every version of every object, so objects overwritten or deleted by mistake or by an attacker can be recovered.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "S3",
	"severity": "medium",
	"aliases": ["CKV_AWS_21"],
	"remediation": {
		"cloudformation": "Set VersioningConfiguration: {Status: Enabled} on the AWS::S3::Bucket.",
		"console": "In the bucket's Properties, edit Bucket Versioning and choose Enable.",
	},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/Versioning.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-s3-bucket-versioningconfiguration.html",
	],
}

# A set of messages: the simplest form of a single-resource deny.
deny[msg] {
	status := object.get(input, ["VersioningConfiguration", "Status"], "not configured")
	status != "Enabled"
	msg := sprintf("Versioning is %s, not Enabled.", [status])
}
