# Trails that deliver to CloudWatch Logs have metric filters and alarms for
# the monitored event families: one result per trail and family.
package rules.cfn_cloudtrail_metric_alarms

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-023",
	"title": "CloudTrail events that need attention raise CloudWatch alarms",
	"description": "Delivering a trail to CloudWatch Logs is only useful when someone is told about the events that matter. For each family of events (unauthorised calls, console sign-in without MFA, root use, IAM policy changes, CloudTrail and Config changes, failed console sign-ins, KMS key disabling, bucket policy changes, security group, network ACL, gateway, route table and VPC changes, Organizations changes) the template should hold an AWS::Logs::MetricFilter whose FilterPattern names the family's events and an AWS::CloudWatch::Alarm on the filter's metric. The rule judges every trail that sets CloudWatchLogsLogGroupArn; it does not check that the filter reads that trail's log group.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudWatch",
	"severity": "low",
	"controls": [
		"CIS-AWS_v1.5.0_4.1", "CIS-AWS_v1.5.0_4.2", "CIS-AWS_v1.5.0_4.3", "CIS-AWS_v1.5.0_4.4", "CIS-AWS_v1.5.0_4.5",
		"CIS-AWS_v1.5.0_4.6", "CIS-AWS_v1.5.0_4.7", "CIS-AWS_v1.5.0_4.8", "CIS-AWS_v1.5.0_4.9", "CIS-AWS_v1.5.0_4.10",
		"CIS-AWS_v1.5.0_4.11", "CIS-AWS_v1.5.0_4.12", "CIS-AWS_v1.5.0_4.13", "CIS-AWS_v1.5.0_4.14", "CIS-AWS_v1.5.0_4.15",
	],
	"remediation": {"cloudformation": "For each family reported, add an AWS::Logs::MetricFilter on the trail's log group whose FilterPattern matches the family's events, and an AWS::CloudWatch::Alarm on its MetricName and MetricNamespace with an SNS action."},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudwatch-alarms-for-cloudtrail.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-logs-metricfilter.html",
	],
}

alarmed contains [alarm.MetricName, alarm.Namespace] if some alarm in snyk.resources("AWS::CloudWatch::Alarm")

alarmed_filter(f) if {
	some t in object.get(f, "MetricTransformations", [])
	[t.MetricName, t.MetricNamespace] in alarmed
}

covered contains family if {
	some f in snyk.resources("AWS::Logs::MetricFilter")
	is_string(f.FilterPattern)
	some family, words in aws.event_families
	every word in words {
		contains(f.FilterPattern, word)
	}
	alarmed_filter(f)
}

monitored_trails contains trail if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	not object.get(trail, "CloudWatchLogsLogGroupArn", "") in {"", null}
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
