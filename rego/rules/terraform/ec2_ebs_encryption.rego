# EC2 instance volumes are encrypted: one result per block device.
package rules.tf_aws_ec2_ebs_encryption

import data.snyk
import rego.v1

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

# [instance, tag, attribute path, device] for every block device.
devices contains [instance, "root_block_device", ["root_block_device", i, "encrypted"], device] if {
	some instance in snyk.resources("aws_instance")
	some i, device in object.get(instance, "root_block_device", [])
}

devices contains [instance, tag, ["ebs_block_device", i, "encrypted"], device] if {
	some instance in snyk.resources("aws_instance")
	some i, device in object.get(instance, "ebs_block_device", [])
	tag := sprintf("ebs_block_device[%s]", [device.device_name])
}

# An instance without a root_block_device gets an unencrypted root volume
# (unless the account encrypts by default, which the configuration does not show).
deny contains info if {
	some instance in snyk.resources("aws_instance")
	not instance.root_block_device
	info := {
		"resource": instance,
		"result_tag": "root_block_device",
		"message": "The root volume is not encrypted (no root_block_device with encrypted = true).",
	}
}

deny contains info if {
	some [instance, tag, path, device] in devices
	object.get(device, "encrypted", false) != true
	info := {"resource": instance, "result_tag": tag, "message": sprintf("%s is not encrypted.", [tag]), "attributes": [path]}
}

resources contains {"resource": instance, "result_tag": tag, "attributes": [path]} if some [instance, tag, path, _] in devices
