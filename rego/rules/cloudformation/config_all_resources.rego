# AWS Config recorders record every supported resource type, global ones included.
package rules.cfn_config_all_resources

import data.shipped_lib.aws
import rego.v1

resource_type := "AWS::Config::ConfigurationRecorder"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-016",
	"title": "AWS Config recorders record all resource types",
	"description": "A recorder limited to a list of resource types, or leaving out global types such as IAM, keeps no configuration history for the rest.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "Config",
	"severity": "low",
	"controls": ["CIS-AWS_v1.5.0_3.5"],
	"remediation": {"cloudformation": "Set RecordingGroup.AllSupported: true and RecordingGroup.IncludeGlobalResourceTypes: true on the AWS::Config::ConfigurationRecorder."},
	"references": [
		"https://docs.aws.amazon.com/config/latest/developerguide/select-resources.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-config-configurationrecorder-recordinggroup.html",
	],
}

# Without a RecordingGroup a recorder records all supported types but no
# global ones, so both settings are read with those defaults.
defaults := {"AllSupported": true, "IncludeGlobalResourceTypes": false}

deny contains info if {
	some key, default_value in defaults
	not aws.cfn_true(object.get(object.get(input, "RecordingGroup", {}), key, default_value))
	info := {"message": sprintf("RecordingGroup.%s is not true.", [key]), "attributes": [["RecordingGroup", key]]}
}
