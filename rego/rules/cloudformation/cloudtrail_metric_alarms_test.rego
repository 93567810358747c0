package rules.cfn_cloudtrail_metric_alarms_test

import data.rules.cfn_cloudtrail_metric_alarms as rule
import rego.v1

filter(pattern, metric) := {"attributes": {"LogGroupName": "TrailLogs", "FilterPattern": pattern, "MetricTransformations": [{"MetricName": metric, "MetricNamespace": "Security", "MetricValue": "1"}]}}

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::CloudTrail::Trail": {
			"Monitored": {"attributes": {"CloudWatchLogsLogGroupArn": "TrailLogs"}},
			"Unmonitored": {"attributes": {"IsLogging": true}},
		},
		"AWS::Logs::MetricFilter": {
			"KmsFilter": filter("{ ($.eventSource = kms.amazonaws.com) && (($.eventName = DisableKey) || ($.eventName = ScheduleKeyDeletion)) }", "KeyDisabling"),
			"VpcFilter": filter("{ ($.eventName = CreateVpc) || ($.eventName = DeleteVpc) }", "VpcChanges"),
		},
		"AWS::CloudWatch::Alarm": {"KmsAlarm": {"attributes": {"MetricName": "KeyDisabling", "Namespace": "Security"}}},
	},
}

test_families_without_an_alarmed_filter_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	count(failures) == 14
	not ["Monitored", "kms_key_disabling"] in failures
	["Monitored", "vpc_changes"] in failures
	{id | some [id, _] in failures} == {"Monitored"}
	count(rule.resources) == 15 with input as state
}
