package relations_test.aws.kms

import data.snyk
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_kms_key": {
			"aws_kms_key.logs": {"attributes": {}},
			"aws_kms_key.unused": {"attributes": {}},
		},
		"aws_cloudtrail": {"aws_cloudtrail.main": {"attributes": {"kms_key_id": "aws_kms_key.logs"}}},
		"aws_s3_bucket_server_side_encryption_configuration": {"aws_s3_bucket_server_side_encryption_configuration.logs": {"attributes": {"rule": [{"apply_server_side_encryption_by_default": [{"kms_master_key_id": "aws_kms_key.logs", "sse_algorithm": "aws:kms"}]}]}}},
		"aws_ebs_volume": {"aws_ebs_volume.data": {"attributes": {"kms_key_id": null}}},
	},
}

users(id) := {r._id |
	some k in snyk.resources("aws_kms_key")
	k._id == id
	some r in snyk.relates(k, "aws_kms_key")
}

test_key_users if {
	users("aws_kms_key.logs") == {"aws_cloudtrail.main", "aws_s3_bucket_server_side_encryption_configuration.logs"} with input as state
	users("aws_kms_key.unused") == set() with input as state
}
