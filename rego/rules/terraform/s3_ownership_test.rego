package rules.tf_aws_s3_ownership_test

import data.rules.tf_aws_s3_ownership as rule

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.enforced": {"attributes": {"bucket": "enforced"}},
			"aws_s3_bucket.preferred": {"attributes": {"bucket": "preferred"}},
			"aws_s3_bucket.none": {"attributes": {"bucket": "none"}},
		},
		"aws_s3_bucket_ownership_controls": {
			"aws_s3_bucket_ownership_controls.enforced": {"attributes": {"bucket": "aws_s3_bucket.enforced", "rule": [{"object_ownership": "BucketOwnerEnforced"}]}},
			"aws_s3_bucket_ownership_controls.preferred": {"attributes": {"bucket": "preferred", "rule": [{"object_ownership": "BucketOwnerPreferred"}]}},
		},
	},
}

test_acl_enabled_buckets_fail {
	denied := {[id, attrs] | info := rule.deny[_]; id := object.get(info, "primary_resource", info.resource)._id; attrs := object.get(info, "attributes", [])} with input as state
	denied == {
		["aws_s3_bucket.preferred", [["rule", 0, "object_ownership"]]],
		["aws_s3_bucket.none", []],
	}
}
