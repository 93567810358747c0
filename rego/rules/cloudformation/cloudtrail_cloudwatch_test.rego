package rules.cfn_cloudtrail_cloudwatch_test

import data.rules.cfn_cloudtrail_cloudwatch as rule
import rego.v1

test_trail_with_log_group_passes if {
	count(rule.deny) == 0 with input as {"CloudWatchLogsLogGroupArn": "TrailLogs", "CloudWatchLogsRoleArn": "TrailRole"}
}

test_trail_without_log_group_fails if {
	count(rule.deny) == 1 with input as {"IsLogging": true, "S3BucketName": "Logs"}
}
