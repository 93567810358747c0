# Multi-resource rule in v0 syntax: buckets whose access is not logged, and
# where each bucket's logs go (a user relation with annotations).
package rules.s3_logging

import data.snyk

deny[info] {
	bucket := snyk.resources("aws_s3_bucket")[_]
	count(snyk.relates(bucket, "aws_s3_bucket.logging")) == 0
	not log_target(bucket)
	info := {"resource": bucket, "message": "bucket access is not logged"}
}

log_target(bucket) {
	count(snyk.back_relates("corpus.logs_to", bucket)) > 0
}

log_destinations[name] = prefixes {
	bucket := snyk.resources("aws_s3_bucket")[_]
	name := bucket.bucket
	prefixes := [ann | pair := snyk.relates_with(bucket, "corpus.logs_to")[_]; ann := pair[1]]
	count(prefixes) > 0
}
