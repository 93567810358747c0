package rules.tf_aws_cloudtrail_s3_data_events_test

import data.rules.tf_aws_cloudtrail_s3_data_events as rule
import rego.v1

trails(extra) := {
	"input_type": "tf_hcl",
	"resources": {"aws_cloudtrail": object.union({"aws_cloudtrail.main": {"attributes": {"is_multi_region_trail": true}}}, extra)},
}

failures(state) := f if {
	f := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
}

test_no_data_events_fail_every_trail if {
	failures(trails({})) == {["aws_cloudtrail.main", "read"], ["aws_cloudtrail.main", "write"]}
}

test_one_trail_logging_writes_covers_writes if {
	writes := {"aws_cloudtrail.data": {"attributes": {"event_selector": [{
		"read_write_type": "WriteOnly",
		"data_resource": [{"type": "AWS::S3::Object", "values": ["arn:aws:s3"]}],
	}]}}}
	failures(trails(writes)) == {["aws_cloudtrail.main", "read"], ["aws_cloudtrail.data", "read"]}
}

test_a_single_bucket_selector_does_not_count if {
	one := {"aws_cloudtrail.data": {"attributes": {"event_selector": [{"data_resource": [{"type": "AWS::S3::Object", "values": ["arn:aws:s3:::logs/"]}]}]}}}
	count(failures(trails(one))) == 4
}

test_advanced_selectors if {
	all_objects := {"aws_cloudtrail.data": {"attributes": {"advanced_event_selector": [{"field_selector": [
		{"field": "eventCategory", "equals": ["Data"]},
		{"field": "resources.type", "equals": ["AWS::S3::Object"]},
	]}]}}}
	failures(trails(all_objects)) == set()
	count(rule.resources) == 4 with input as trails(all_objects)
}
