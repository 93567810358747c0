# CloudTrail trails deliver to CloudWatch Logs.
package rules.tf_aws_cloudtrail_cloudwatch

import rego.v1

resource_type := "aws_cloudtrail"

input_type := "tf"

metadata := {
	"id": "RE-AWS-025",
	"title": "CloudTrail trails send events to CloudWatch Logs",
	"description": "Delivering a trail to CloudWatch Logs is what lets metric filters and alarms react to API activity as it happens.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "low",
	"aliases": ["CKV_AWS_252"],
	"controls": ["CIS-AWS_v1.5.0_3.4"],
	"remediation": {"terraform": "Set cloud_watch_logs_group_arn (\"${aws_cloudwatch_log_group.x.arn}:*\") and cloud_watch_logs_role_arn on the trail."},
	"references": ["https://docs.aws.amazon.com/awscloudtrail/latest/userguide/send-cloudtrail-events-to-cloudwatch-logs.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudtrail#cloud_watch_logs_group_arn"],
}

deny contains info if {
	object.get(input, "cloud_watch_logs_group_arn", "") == ""
	info := {"message": "The trail has no CloudWatch Logs group."}
}
