# Single-resource rule, Rego v0, fugue-style `default allow = false`.
package rules.s3_bucket_versioning

resource_type = "aws_s3_bucket"

metadata := {
	"id": "SNYK-CC-TF-S3-004",
	"title": "S3 bucket versioning is disabled",
	"description": "Versioning keeps prior object versions so accidental deletes and overwrites can be recovered.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Add a `versioning { enabled = true }` block or an aws_s3_bucket_versioning resource."},
	"category": "Data",
	"service_group": "S3",
	"severity": "low",
}

default allow = false

allow {
	input.versioning[_].enabled == true
}
