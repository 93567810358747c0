package rules.cfn_config_all_resources_test

import data.rules.cfn_config_all_resources as rule
import rego.v1

test_recorder_of_everything_passes if {
	count(rule.deny) == 0 with input as {"RecordingGroup": {"AllSupported": true, "IncludeGlobalResourceTypes": "true"}}
}

test_partial_recorders_fail if {
	count(rule.deny) == 1 with input as {"RoleARN": "ConfigRole"}
	count(rule.deny) == 2 with input as {"RecordingGroup": {"AllSupported": false, "ResourceTypes": ["AWS::S3::Bucket"]}}
}
