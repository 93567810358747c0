package rules.tf_aws_rds_instance_test

import data.rules.tf_aws_rds_instance as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {"aws_db_instance": {
		"aws_db_instance.good": {"attributes": {"storage_encrypted": true, "publicly_accessible": false}},
		"aws_db_instance.bad": {"attributes": {"publicly_accessible": true}},
	}},
}

test_each_problem_fails if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["aws_db_instance.bad", "storage_encrypted"], ["aws_db_instance.bad", "publicly_accessible"]}
	count(rule.resources) == 4 with input as state
}
