package rules.tf_aws_ec2_ebs_encryption_test

import data.rules.tf_aws_ec2_ebs_encryption as rule
import rego.v1

instance := {
	"root_block_device": [{"encrypted": true}],
	"ebs_block_device": [
		{"device_name": "/dev/sdf", "encrypted": true},
		{"device_name": "/dev/sdg"},
	],
}

test_unencrypted_devices_fail_by_tag if {
	{i.result_tag | some i in rule.deny} == {"ebs_block_device[/dev/sdg]"} with input as instance
	{i.result_tag | some i in rule.resources} == {"root_block_device", "ebs_block_device[/dev/sdf]", "ebs_block_device[/dev/sdg]"} with input as instance
}

test_missing_root_device_fails if {
	{i.result_tag | some i in rule.deny} == {"root_block_device"} with input as {"ami": "ami-1"}
}
