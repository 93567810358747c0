# Trails that deliver to CloudWatch Logs have metric filters and alarms for
# the monitored event families: one result per trail and family.
package rules.tf_aws_cloudtrail_metric_alarms

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-032",
	"title": "CloudTrail events that need attention raise CloudWatch alarms",
	"description": "Delivering a trail to CloudWatch Logs is only useful when someone is told about the events that matter. For each family of events (unauthorised calls, console sign-in without MFA, root use, IAM policy changes, CloudTrail and Config changes, failed console sign-ins, KMS key disabling, bucket policy changes, security group, network ACL, gateway, route table and VPC changes, Organizations changes) the configuration should hold an aws_cloudwatch_log_metric_filter whose pattern names the family's events and an aws_cloudwatch_metric_alarm on the filter's metric. The rule judges every trail that sets cloud_watch_logs_group_arn; it does not check that the filter reads that trail's log group.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudWatch",
	"severity": "low",
	"controls": [
		"CIS-AWS_v1.5.0_4.1", "CIS-AWS_v1.5.0_4.2", "CIS-AWS_v1.5.0_4.3", "CIS-AWS_v1.5.0_4.4", "CIS-AWS_v1.5.0_4.5",
		"CIS-AWS_v1.5.0_4.6", "CIS-AWS_v1.5.0_4.7", "CIS-AWS_v1.5.0_4.8", "CIS-AWS_v1.5.0_4.9", "CIS-AWS_v1.5.0_4.10",
		"CIS-AWS_v1.5.0_4.11", "CIS-AWS_v1.5.0_4.12", "CIS-AWS_v1.5.0_4.13", "CIS-AWS_v1.5.0_4.14", "CIS-AWS_v1.5.0_4.15",
	],
	"remediation": {"terraform": "For each family reported, add an aws_cloudwatch_log_metric_filter on the trail's log group whose pattern matches the family's events, and an aws_cloudwatch_metric_alarm on its metric_transformation name and namespace with an SNS action."},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudwatch-alarms-for-cloudtrail.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_log_metric_filter",
	],
}

# [metric name, namespace] of every metric some alarm watches.
alarmed contains [alarm.metric_name, alarm.namespace] if some alarm in snyk.resources("aws_cloudwatch_metric_alarm")

# A filter whose metric has an alarm.
alarmed_filter(f) if {
	some t in object.get(f, "metric_transformation", [])
	[t.name, t.namespace] in alarmed
}

covered contains family if {
	some f in snyk.resources("aws_cloudwatch_log_metric_filter")
	is_string(f.pattern)
	some family, words in aws.event_families
	every word in words {
		contains(f.pattern, word)
	}
	alarmed_filter(f)
}

monitored_trails contains trail if {
	some trail in snyk.resources("aws_cloudtrail")
	object.get(trail, "cloud_watch_logs_group_arn", "") != ""
}

deny contains info if {
	some trail in monitored_trails
	some family, _ in aws.event_families
	not family in covered
	info := {
		"resource": trail,
		"result_tag": family,
		"message": sprintf("No metric filter with an alarm watches %s events.", [replace(family, "_", " ")]),
	}
}

resources contains {"resource": trail, "result_tag": family} if {
	some trail in monitored_trails
	some family, _ in aws.event_families
}
