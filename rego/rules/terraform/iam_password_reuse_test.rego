package rules.tf_aws_iam_password_reuse_test

import data.rules.tf_aws_iam_password_reuse as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"password_reuse_prevention": 24}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"minimum_password_length": 14}
}
