package rules.tf_aws_efs_encryption_test

import data.rules.tf_aws_efs_encryption as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"encrypted": true}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"creation_token": "x"}
}
