# EC2 instance volumes are encrypted: one result per block device.
package rules.tf_aws_ec2_ebs_encryption

import rego.v1

resource_type := "aws_instance"

input_type := "tf"

metadata := {
	"id": "RE-AWS-011",
	"title": "EC2 instance volumes are encrypted",
	"description": "EBS encryption protects data at rest, snapshots and data in transit between the instance and the volume. Each root_block_device and ebs_block_device of an instance should set encrypted = true (unless EBS encryption by default is turned on for the account).",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "EC2",
	"severity": "medium",
	"remediation": {
		"terraform": "Set encrypted = true in the instance's root_block_device and every ebs_block_device, or enable aws_ebs_encryption_by_default for the account.",
		"console": "In EC2 > Settings > EBS encryption, enable Always encrypt new EBS volumes; re-create unencrypted volumes from encrypted snapshots.",
	},
	"references": [
		"https://docs.aws.amazon.com/ebs/latest/userguide/ebs-encryption.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance#ebs-ephemeral-and-root-block-devices",
	],
}

devices contains [tag, path, device] if {
	some i, device in object.get(input, "root_block_device", [])
	tag := "root_block_device"
	path := ["root_block_device", i, "encrypted"]
}

devices contains [tag, path, device] if {
	some i, device in object.get(input, "ebs_block_device", [])
	tag := sprintf("ebs_block_device[%s]", [device.device_name])
	path := ["ebs_block_device", i, "encrypted"]
}

# An instance without a root_block_device gets an unencrypted root volume
# (unless the account encrypts by default, which the configuration does not show).
deny contains info if {
	not input.root_block_device
	info := {"result_tag": "root_block_device", "message": "The root volume is not encrypted (no root_block_device with encrypted = true)."}
}

deny contains info if {
	some [tag, path, device] in devices
	object.get(device, "encrypted", false) != true
	info := {"result_tag": tag, "message": sprintf("%s is not encrypted.", [tag]), "attributes": [path]}
}

resources contains {"result_tag": tag, "attributes": [path]} if some [tag, path, _] in devices
