package rules.cfn_ebs_encryption_test

import data.rules.cfn_ebs_encryption as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::EC2::Volume": {
			"GoodVolume": {"attributes": {"Encrypted": "true", "Size": 10}},
			"BadVolume": {"attributes": {"Size": 10}},
		},
		"AWS::EC2::Instance": {"Host": {"attributes": {"BlockDeviceMappings": [
			{"DeviceName": "/dev/xvda", "Ebs": {"Encrypted": true}},
			{"DeviceName": "/dev/xvdb", "Ebs": {"VolumeSize": 50}},
			{"DeviceName": "/dev/sdc", "VirtualName": "ephemeral0"},
		]}}},
		"AWS::EC2::LaunchTemplate": {"Template": {"attributes": {"LaunchTemplateData": {"BlockDeviceMappings": [{"DeviceName": "/dev/xvda", "Ebs": {"Encrypted": false}}]}}}},
	},
}

test_each_unencrypted_volume_fails if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["BadVolume", "Encrypted"],
		["Host", "BlockDeviceMappings[/dev/xvdb]"],
		["Template", "BlockDeviceMappings[/dev/xvda]"],
	}
	count(rule.resources) == 5 with input as state
}
