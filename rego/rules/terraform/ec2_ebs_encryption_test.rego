package rules.tf_aws_ec2_ebs_encryption_test

import data.rules.tf_aws_ec2_ebs_encryption as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {"aws_instance": {
		"aws_instance.app": {"attributes": {
			"root_block_device": [{"encrypted": true}],
			"ebs_block_device": [
				{"device_name": "/dev/sdf", "encrypted": true},
				{"device_name": "/dev/sdg"},
			],
		}},
		"aws_instance.default_root": {"attributes": {"ami": "ami-1"}},
	}},
}

test_unencrypted_devices_fail_by_tag if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["aws_instance.app", "ebs_block_device[/dev/sdg]"], ["aws_instance.default_root", "root_block_device"]}
}

test_every_device_has_a_result if {
	{i.result_tag | some i in rule.resources} == {"root_block_device", "ebs_block_device[/dev/sdf]", "ebs_block_device[/dev/sdg]"} with input as state
}
