# Relations between S3 buckets and the resources that configure them. A
# bucket is known by its name (`bucket`) or, in plans and state, its `id`.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.logging",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_logging": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.server_side_encryption_configuration",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_server_side_encryption_configuration": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.public_access_block",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_public_access_block": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.versioning",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_versioning": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.policy",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_policy": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.acl",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_acl": ["bucket"]},
)

relations contains snyk.relation_from_fields(
	"aws_s3_bucket.ownership_controls",
	{"aws_s3_bucket": ["id", "bucket"]},
	{"aws_s3_bucket_ownership_controls": ["bucket"]},
)
