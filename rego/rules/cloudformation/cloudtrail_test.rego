package rules.cfn_cloudtrail_test

import data.rules.cfn_cloudtrail as rule

state := {
	"input_type": "cfn",
	"resources": {"AWS::CloudTrail::Trail": {
		"Complete": {"attributes": {"EnableLogFileValidation": true, "IsMultiRegionTrail": "true", "KMSKeyId": "TrailKey"}},
		"Partial": {"attributes": {"EnableLogFileValidation": true}},
	}},
}

test_missing_settings_fail {
	failures := {[i.resource._id, i.result_tag] | i := rule.deny[_]} with input as state
	failures == {["Partial", "IsMultiRegionTrail"], ["Partial", "KMSKeyId"]}
	count(rule.resources) == 6 with input as state
}
