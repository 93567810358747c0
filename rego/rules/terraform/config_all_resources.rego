# AWS Config records every resource type.
package rules.tf_aws_config_all_resources

import rego.v1

resource_type := "aws_config_configuration_recorder"

input_type := "tf"

metadata := {
	"id": "RE-AWS-026",
	"title": "AWS Config recorders record all resource types",
	"description": "A recorder limited to some resource types leaves the configuration history of the others unrecorded; CIS asks for all supported types, global ones included.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "Config",
	"severity": "low",
	"controls": ["CIS-AWS_v1.5.0_3.5"],
	"remediation": {"terraform": "Set recording_group { all_supported = true, include_global_resource_types = true } on the recorder."},
	"references": ["https://docs.aws.amazon.com/config/latest/developerguide/select-resources.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/config_configuration_recorder"],
}

deny contains info if {
	some i, group in input.recording_group
	some key in ["all_supported", "include_global_resource_types"]
	object.get(group, key, key == "all_supported") != true
	info := {"message": sprintf("recording_group.%s is not true.", [key]), "attributes": [["recording_group", i, key]]}
}
