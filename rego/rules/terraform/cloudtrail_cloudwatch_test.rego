package rules.tf_aws_cloudtrail_cloudwatch_test

import data.rules.tf_aws_cloudtrail_cloudwatch as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"cloud_watch_logs_group_arn": "arn:aws:logs:eu-west-1:1:log-group:trail:*"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"name": "t"}
}
