package rules.tf_aws_ebs_default_encryption_test

import data.rules.tf_aws_ebs_default_encryption as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"enabled": true}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"enabled": false}
}
