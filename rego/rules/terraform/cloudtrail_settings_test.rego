package rules.tf_aws_cloudtrail_settings_test

import data.rules.tf_aws_cloudtrail_settings as rule

state := {
	"input_type": "tf_plan",
	"resources": {"aws_cloudtrail": {
		"aws_cloudtrail.complete": {"attributes": {"enable_log_file_validation": true, "is_multi_region_trail": true, "kms_key_id": "aws_kms_key.trail"}},
		"aws_cloudtrail.partial": {"attributes": {"is_multi_region_trail": true, "kms_key_id": null}},
	}},
}

test_missing_settings_fail {
	failures := {[i.resource._id, i.result_tag] | i := rule.deny[_]} with input as state
	failures == {["aws_cloudtrail.partial", "enable_log_file_validation"], ["aws_cloudtrail.partial", "kms_key_id"]}
}

test_every_setting_has_a_result {
	count(rule.resources) == 6 with input as state
}
