# CloudTrail trails deliver to CloudWatch Logs.
package rules.cfn_cloudtrail_cloudwatch

import rego.v1

resource_type := "AWS::CloudTrail::Trail"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-015",
	"title": "CloudTrail trails send events to CloudWatch Logs",
	"description": "A trail delivering to a CloudWatch Logs group is what lets metric filters and alarms react to API activity while it happens, rather than after someone reads the S3 log files.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "low",
	"aliases": ["CKV_AWS_252"],
	"controls": ["CIS-AWS_v1.5.0_3.4"],
	"remediation": {"cloudformation": "Set CloudWatchLogsLogGroupArn and CloudWatchLogsRoleArn on the AWS::CloudTrail::Trail (a log group and a role CloudTrail can assume to write to it)."},
	"references": [
		"https://docs.aws.amazon.com/awscloudtrail/latest/userguide/send-cloudtrail-events-to-cloudwatch-logs.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-cloudtrail-trail.html",
	],
}

deny contains info if {
	object.get(input, "CloudWatchLogsLogGroupArn", "") in {"", null}
	info := {"message": "The trail has no CloudWatchLogsLogGroupArn."}
}
