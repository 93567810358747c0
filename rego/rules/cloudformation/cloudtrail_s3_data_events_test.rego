package rules.cfn_cloudtrail_s3_data_events_test

import data.rules.cfn_cloudtrail_s3_data_events as rule
import rego.v1

trails(extra) := {
	"input_type": "cfn",
	"resources": {"AWS::CloudTrail::Trail": object.union({"Main": {"attributes": {"IsLogging": true}}}, extra)},
}

failures(state) := f if {
	f := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
}

test_no_data_events_fail_every_trail if {
	failures(trails({})) == {["Main", "read"], ["Main", "write"]}
}

test_one_trail_logging_reads_covers_reads if {
	reads := {"Data": {"attributes": {"EventSelectors": [{
		"ReadWriteType": "ReadOnly",
		"DataResources": [{"Type": "AWS::S3::Object", "Values": ["arn:aws:s3"]}],
	}]}}}
	failures(trails(reads)) == {["Main", "write"], ["Data", "write"]}
}

test_advanced_selectors if {
	writes := {"Data": {"attributes": {"AdvancedEventSelectors": [{"FieldSelectors": [
		{"Field": "eventCategory", "Equals": ["Data"]},
		{"Field": "resources.type", "Equals": ["AWS::S3::Object"]},
		{"Field": "readOnly", "Equals": ["false"]},
	]}]}}}
	failures(trails(writes)) == {["Main", "read"], ["Data", "read"]}
	count(rule.resources) == 4 with input as trails(writes)
}
