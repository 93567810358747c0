package rules.cfn_rds_instance_test

import data.rules.cfn_rds_instance as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {"AWS::RDS::DBInstance": {
		"Good": {"attributes": {"StorageEncrypted": "true", "PubliclyAccessible": false}},
		"Bad": {"attributes": {"PubliclyAccessible": true}},
	}},
}

test_each_problem_fails if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["Bad", "StorageEncrypted"], ["Bad", "PubliclyAccessible"]}
	count(rule.resources) == 4 with input as state
}
