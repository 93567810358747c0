package rules.multi_resources_v0

import data.snyk

resource_type := "MULTIPLE"

metadata := {
	"id": "MULTI_V0",
	"severity": "High",
	"remediation": {
		"terraform": "add an aws_s3_bucket_server_side_encryption_configuration",
		"console": "enable default encryption in the S3 console",
	},
}

buckets := snyk.resources("aws_s3_bucket")

encryption_configs := snyk.resources("aws_s3_bucket_server_side_encryption_configuration")

encrypted(bucket) {
	cfg := encryption_configs[_]
	cfg.bucket == bucket.bucket
}

deny[info] {
	bucket := buckets[_]
	not encrypted(bucket)
	info := {"resource": bucket, "message": "bucket has no encryption configuration"}
}

resources[info] {
	bucket := buckets[_]
	info := {"resource": bucket}
}

resources[info] {
	bucket := buckets[_]
	cfg := encryption_configs[_]
	cfg.bucket == bucket.bucket
	info := {"primary_resource": bucket, "resource": cfg, "attributes": [["rule", 0]]}
}
