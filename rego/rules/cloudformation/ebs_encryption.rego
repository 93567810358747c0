# EBS volumes, and the volumes instances and launch templates map, are encrypted.
package rules.cfn_ebs_encryption

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-012",
	"title": "EBS volumes are encrypted",
	"description": "EBS encryption protects a volume's data at rest, its snapshots and the traffic between it and the instance. The rule reads AWS::EC2::Volume and the Ebs block device mappings of instances, launch templates and launch configurations; a mapping that does not set Encrypted gets an unencrypted volume unless its snapshot or the account default says otherwise, which the template does not show.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "EC2",
	"severity": "medium",
	"aliases": ["CKV_AWS_3", "CKV_AWS_8"],
	"controls": ["CIS-AWS_v1.5.0_2.2.1"],
	"remediation": {"cloudformation": "Set Encrypted: true on each AWS::EC2::Volume and on the Ebs of each block device mapping (optionally KmsKeyId); or turn on EBS encryption by default for the account and region."},
	"references": [
		"https://docs.aws.amazon.com/ebs/latest/userguide/ebs-encryption.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-volume.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ec2-blockdev-mapping.html",
	],
}

# Where each type keeps its block device mappings.
mapping_paths := {
	"AWS::EC2::Instance": ["BlockDeviceMappings"],
	"AWS::EC2::LaunchTemplate": ["LaunchTemplateData", "BlockDeviceMappings"],
	"AWS::AutoScaling::LaunchConfiguration": ["BlockDeviceMappings"],
}

# [resource, tag, attribute path, encrypted value] for every EBS volume.
volumes contains [volume, "Encrypted", ["Encrypted"], object.get(volume, "Encrypted", false)] if {
	some volume in snyk.resources("AWS::EC2::Volume")
}

volumes contains [r, tag, path, object.get(mapping.Ebs, "Encrypted", false)] if {
	some type, prefix in mapping_paths
	some r in snyk.resources(type)
	some i, mapping in object.get(r, prefix, [])
	is_object(mapping.Ebs)
	tag := sprintf("BlockDeviceMappings[%s]", [object.get(mapping, "DeviceName", sprintf("%d", [i]))])
	path := array.concat(prefix, [i, "Ebs", "Encrypted"])
}

tag_name("Encrypted") := "The volume"

tag_name(tag) := tag if tag != "Encrypted"

deny contains info if {
	some [r, tag, path, encrypted] in volumes
	not aws.cfn_true(encrypted)
	info := {"resource": r, "result_tag": tag, "message": sprintf("%s is not encrypted.", [tag_name(tag)]), "attributes": [path]}
}

resources contains {"resource": r, "result_tag": tag, "attributes": [path]} if some [r, tag, path, _] in volumes
