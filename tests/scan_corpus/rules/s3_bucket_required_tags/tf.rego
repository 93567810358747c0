# Single-resource rule, Rego v0: deny[msg] with plain string messages and
# legacy __rego__metadoc__ metadata.
package rules.s3_bucket_required_tags

__rego__metadoc__ := {
	"id": "ACME_TAG_001",
	"title": "S3 buckets must carry the env and owner tags",
	"description": "Cost allocation and incident response rely on every bucket naming its environment and owning team.",
	"custom": {
		"severity": "Low",
		"controls": {"ACME-Tagging_v2": ["ACME-Tagging_v2_1.1", "ACME-Tagging_v2_1.2"]},
	},
}

resource_type = "aws_s3_bucket"

required_tags = {"env", "owner"}

deny[msg] {
	present := {k | input._tags[k]}
	missing := required_tags - present
	count(missing) > 0
	msg := sprintf("S3 bucket %s is missing required tag(s): %s", [input.id, concat(", ", sort(missing))])
}
