package rules.multi_correlation_v0

import data.snyk

deny[info] {
	count([b | b := snyk.resources("aws_s3_bucket")[_]; b.acl == "public-read"]) > 0
	info := {"message": "some bucket is public", "correlation": "public-buckets"}
}

resources[info] {
	b := snyk.resources("aws_s3_bucket")[_]
	b.acl == "public-read"
	info := {"resource": b, "correlation": "public-buckets", "attributes": [["acl"]]}
}
