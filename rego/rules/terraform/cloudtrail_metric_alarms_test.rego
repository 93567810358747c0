package rules.tf_aws_cloudtrail_metric_alarms_test

import data.rules.tf_aws_cloudtrail_metric_alarms as rule
import rego.v1

filter(pattern, metric) := {"attributes": {"log_group_name": "trail", "pattern": pattern, "metric_transformation": [{"name": metric, "namespace": "CISBenchmark", "value": "1"}]}}

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_cloudtrail": {
			"aws_cloudtrail.monitored": {"attributes": {"cloud_watch_logs_group_arn": "arn:aws:logs:eu-west-1:111122223333:log-group:trail:*"}},
			"aws_cloudtrail.unmonitored": {"attributes": {"name": "unmonitored"}},
		},
		"aws_cloudwatch_log_metric_filter": {
			"aws_cloudwatch_log_metric_filter.root": filter("{ $.userIdentity.type = \"Root\" && $.userIdentity.invokedBy NOT EXISTS && $.eventType != \"AwsServiceEvent\" }", "RootUsage"),
			"aws_cloudwatch_log_metric_filter.s3": filter("{ ($.eventSource = s3.amazonaws.com) && (($.eventName = PutBucketPolicy) || ($.eventName = DeleteBucketPolicy)) }", "BucketPolicy"),
		},
		"aws_cloudwatch_metric_alarm": {"aws_cloudwatch_metric_alarm.root": {"attributes": {"metric_name": "RootUsage", "namespace": "CISBenchmark"}}},
	},
}

test_families_without_an_alarmed_filter_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	count(failures) == 14
	not ["aws_cloudtrail.monitored", "root_usage"] in failures
	["aws_cloudtrail.monitored", "s3_policy_changes"] in failures
	{id | some [id, _] in failures} == {"aws_cloudtrail.monitored"}
	count(rule.resources) == 15 with input as state
}
