# Requires an owner tag on every bucket (Rego v0 syntax, mixed with v1 above).
package examples.tags

missing_owner[name] {
	bucket := input.resources.aws_s3_bucket[name]
	not bucket.tags.owner
}
