package rules.bucket_versioning

import data.snyk
import rego.v1

metadata := {"id": "REL3", "title": "buckets need versioning", "severity": "high"}

deny contains info if {
	some b in snyk.resources("aws_s3_bucket")
	not _versioned(b)
	info := {"resource": b, "message": "no versioning"}
}

_versioned(b) if {
	some v in snyk.relates(b, "aws_s3_bucket.versioning")
	v.versioning_configuration[0].status == "Enabled"
}

resources contains {"resource": b, "primary_resource": b} if some b in snyk.resources("aws_s3_bucket")

resources contains {"resource": log, "primary_resource": b} if {
	some b in snyk.resources("aws_s3_bucket")
	some log in snyk.relates(b, "aws_s3_bucket.logging")
}
