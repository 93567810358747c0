package rules.multi_graph_v1

import data.snyk
import rego.v1

deny contains info if {
	some bucket in snyk.resources("aws_s3_bucket")
	some cfg in snyk.resources("aws_s3_bucket_server_side_encryption_configuration")
	cfg.bucket == bucket.bucket
	alg := cfg.rule[0].apply_server_side_encryption_by_default[0].sse_algorithm
	alg == "aws:kms"
	info := {
		"primary_resource": bucket,
		"resource": cfg,
		"message": "KMS encryption without a customer key",
		"attributes": [["rule", 0, "apply_server_side_encryption_by_default", 0, "sse_algorithm"]],
		"graph": [{"source": bucket, "label": "encrypted_by", "target": cfg}],
	}
}
