# Single-resource rule, Rego v1: deny contains msg (string messages).
package rules.s3_bucket_name_convention

import rego.v1

resource_type := "aws_s3_bucket"

input_type := "tf"

metadata := {
	"id": "ACME-S3-NAMING",
	"title": "S3 bucket name is not DNS-compliant",
	"description": "Bucket names with upper case letters or underscores break virtual-hosted-style URLs.",
	"severity": "low",
	"kind": "best-practice",
}

deny contains msg if {
	name := object.get(input, "bucket", "")
	name != ""
	not regex.match(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`, name)
	msg := sprintf("S3 bucket name %q is not DNS-compliant; use something like %q", [name, lower(replace(name, "_", "-"))])
}
