package relations_test.aws.cloudtrail

import data.snyk
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.trail": {"attributes": {"bucket": "acme-trail"}},
			"aws_s3_bucket.other": {"attributes": {"bucket": "acme-other"}},
		},
		"aws_cloudtrail": {
			"aws_cloudtrail.by_name": {"attributes": {"s3_bucket_name": "acme-trail"}},
			"aws_cloudtrail.by_reference": {"attributes": {"s3_bucket_name": "aws_s3_bucket.trail"}},
		},
	},
}

test_trails_log_to_their_bucket if {
	some b in snyk.resources("aws_s3_bucket") with input as state
	b._id == "aws_s3_bucket.trail"
	{t._id | some t in snyk.back_relates("aws_cloudtrail.s3_bucket", b)} == {"aws_cloudtrail.by_name", "aws_cloudtrail.by_reference"} with input as state
}
