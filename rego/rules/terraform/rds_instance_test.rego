package rules.tf_aws_rds_instance_test

import data.rules.tf_aws_rds_instance as rule
import rego.v1

test_private_encrypted_instance_passes if {
	count(rule.deny) == 0 with input as {"storage_encrypted": true, "publicly_accessible": false}
}

test_each_problem_fails if {
	{i.result_tag | some i in rule.deny} == {"storage_encrypted", "publicly_accessible"} with input as {"publicly_accessible": true}
}
