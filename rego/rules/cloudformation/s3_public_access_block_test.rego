package rules.cfn_s3_public_access_block_test

import data.rules.cfn_s3_public_access_block as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {"AWS::S3::Bucket": {
		"Locked": {"attributes": {"PublicAccessBlockConfiguration": {"BlockPublicAcls": true, "BlockPublicPolicy": "true", "IgnorePublicAcls": true, "RestrictPublicBuckets": true}}},
		"Partial": {"attributes": {"PublicAccessBlockConfiguration": {"BlockPublicAcls": true, "IgnorePublicAcls": "True", "BlockPublicPolicy": false}}},
		"Bare": {"attributes": {"BucketName": "bare"}},
	}},
}

test_missing_settings_fail_by_name if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	{tag | some [id, tag] in failures; id == "Partial"} == {"BlockPublicPolicy", "RestrictPublicBuckets"}
	count({tag | some [id, tag] in failures; id == "Bare"}) == 4
	not "Locked" in {id | some [id, _] in failures}
}

test_every_setting_has_a_result if {
	count(rule.resources) == 12 with input as state
}
