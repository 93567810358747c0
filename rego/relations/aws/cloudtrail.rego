# CloudTrail trails and the buckets they log to.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_cloudtrail.s3_bucket",
	{"aws_cloudtrail": ["s3_bucket_name"]},
	{"aws_s3_bucket": ["id", "bucket"]},
)
