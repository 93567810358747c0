package rules.tf_aws_s3_public_access_block_test

import data.rules.tf_aws_s3_public_access_block as rule
import rego.v1

all_on := {"block_public_acls": true, "block_public_policy": true, "ignore_public_acls": true, "restrict_public_buckets": true}

state := {
	"input_type": "tf_plan",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.locked": {"attributes": {"bucket": "locked"}},
			"aws_s3_bucket.partial": {"attributes": {"bucket": "partial"}},
			"aws_s3_bucket.open": {"attributes": {"bucket": "open"}},
		},
		"aws_s3_bucket_public_access_block": {
			"aws_s3_bucket_public_access_block.locked": {"attributes": object.union(all_on, {"bucket": "aws_s3_bucket.locked"})},
			"aws_s3_bucket_public_access_block.partial": {"attributes": object.union(all_on, {"bucket": "partial", "restrict_public_buckets": false, "ignore_public_acls": null})},
		},
	},
}

test_failures_by_setting if {
	failures := {[object.get(i, "primary_resource", i.resource)._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["aws_s3_bucket.partial", "restrict_public_buckets"],
		["aws_s3_bucket.partial", "ignore_public_acls"],
		["aws_s3_bucket.open", "public_access_block"],
	}
}

test_a_complete_block_passes_every_setting if {
	tags := {i.result_tag | some i in rule.resources; i.primary_resource._id == "aws_s3_bucket.locked"} with input as state
	tags == {"block_public_acls", "block_public_policy", "ignore_public_acls", "restrict_public_buckets"}
	not "aws_s3_bucket.locked" in {i.primary_resource._id | some i in rule.deny; i.primary_resource} with input as state
}
