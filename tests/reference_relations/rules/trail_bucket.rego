# Rego v1 syntax: where each trail writes, read from the reference relation
# the loader derived from `s3_bucket_name = aws_s3_bucket.x.id`.
package rules.trail_bucket

import data.snyk
import rego.v1

input_type := "tf"

metadata := {"id": "REF-2", "title": "Trails write to a bucket of the configuration", "severity": "medium"}

deny contains info if {
	some trail in snyk.resources("aws_cloudtrail")
	count(snyk.relates(trail, "aws_cloudtrail.s3_bucket_name")) == 0
	info := {"resource": trail, "message": "the trail's bucket is not part of this configuration"}
}

deny contains info if {
	some trail in snyk.resources("aws_cloudtrail")
	some [bucket, ann] in snyk.relates_with(trail, "aws_cloudtrail.s3_bucket_name")
	some policy in snyk.back_relates("aws_s3_bucket_policy.bucket", bucket)
	not policy in snyk.relates(trail, "depends_on")
	info := {
		"resource": trail,
		"message": sprintf("%s (via %v) has a policy the trail does not depend on", [bucket._id, ann.attribute]),
	}
}

resources contains info if {
	some trail in snyk.resources("aws_cloudtrail")
	info := {"resource": trail}
}
