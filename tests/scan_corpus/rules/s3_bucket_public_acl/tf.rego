# Single-resource rule, Rego v0: one S3 bucket is `input`.
package rules.s3_bucket_public_acl

resource_type := "aws_s3_bucket"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-S3-001",
	"title": "S3 bucket ACL grants public access",
	"description": "A canned ACL such as public-read lets anyone on the internet list or read the objects in the bucket.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "Set `acl` to `private` (or remove it) and grant access through bucket policies instead.",
		"cloudformation": "Set `AccessControl` to `Private`.",
		"kubernetes": "",
		"arm": "",
		"console": "Open the bucket in the S3 console, choose Permissions > Access control list, and remove the Everyone and Authenticated users grantees.",
	},
	"references": "https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html#canned-acl",
	"category": "Data",
	"labels": ["S3", "public access", "ACL"],
	"service_group": "S3",
	"controls": ["CIS-AWS_v1.4.0_2.1.5", "PCI-DSS_v3.2.1_1.3.1"],
	"severity": "High",
	"kind": "vulnerability",
}

public_acls := {"public-read", "public-read-write", "authenticated-read"}

bucket_name := object.get(input, "bucket", input.id)

deny[info] {
	public_acls[input.acl]
	info := {"message": sprintf("S3 bucket %s uses the canned ACL %q, which grants public access", [bucket_name, input.acl])}
}
