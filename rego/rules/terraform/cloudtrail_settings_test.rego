package rules.tf_aws_cloudtrail_settings_test

import data.rules.tf_aws_cloudtrail_settings as rule

test_complete_trail_passes {
	count(rule.deny) == 0 with input as {"enable_log_file_validation": true, "is_multi_region_trail": true, "kms_key_id": "aws_kms_key.trail"}
	count(rule.resources) == 3 with input as {}
}

test_each_missing_setting_fails {
	tags := {t | t := rule.deny[_].result_tag} with input as {"is_multi_region_trail": true, "kms_key_id": null}
	tags == {"enable_log_file_validation", "kms_key_id"}
}
