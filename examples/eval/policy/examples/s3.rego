# Flags S3 buckets that are public or unencrypted (Rego v1 syntax).
package examples.s3

import rego.v1

public_acls := {"public-read", "public-read-write"}

deny contains msg if {
	some name, bucket in input.resources.aws_s3_bucket
	bucket.acl in public_acls
	msg := sprintf("%s: ACL %q makes the bucket public", [name, bucket.acl])
}

deny contains msg if {
	some name, bucket in input.resources.aws_s3_bucket
	not encrypted(bucket)
	msg := sprintf("%s: no server-side encryption (owner team: %s)", [name, data.config.owners[name]])
}

encrypted(bucket) if bucket.server_side_encryption_configuration[_].rule[_].apply_server_side_encryption_by_default[_].sse_algorithm

passed := [name | some name, _ in input.resources.aws_s3_bucket; not failing[name]]

failing[name] := true if {
	some name, _ in input.resources.aws_s3_bucket
	some msg in deny
	startswith(msg, concat("", [name, ":"]))
}
