# A single-resource rule: allow is asked once per bucket.
package rules.rd_tf_bucket_versioning

__rego__metadoc__ := {
  "id": "RD_001",
  "title": "S3 buckets keep object versions",
  "description": "Versioning lets a deleted or overwritten object be recovered.",
  "custom": {"severity": "Medium"}
}

input_type := "tf"

resource_type := "aws_s3_bucket"

default allow = false

allow {
  input.versioning[_].enabled == true
}
