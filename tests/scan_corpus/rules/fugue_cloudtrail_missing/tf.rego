# Multi-resource fugue rule, Rego v0: missing_resource_with_message when no
# trail exists, fugue.input_type in the message, deny_resource without message.
package rules.fugue_cloudtrail_missing

import data.fugue

__rego__metadoc__ := {
	"id": "FG_R00027",
	"title": "CloudTrail log file validation should be enabled",
	"description": "At least one trail must exist, and log file validation detects tampering with delivered log files.",
	"custom": {
		"severity": "Medium",
		"controls": {"CIS-AWS_v1.4.0": ["CIS-AWS_v1.4.0_3.1", "CIS-AWS_v1.4.0_3.2"]},
	},
}

resource_type = "MULTIPLE"

input_type = "tf"

trails = fugue.resources("aws_cloudtrail")

policy[j] {
	count(trails) == 0
	j := fugue.missing_resource_with_message("aws_cloudtrail", sprintf("No aws_cloudtrail found in this %s input", [fugue.input_type]))
}

policy[j] {
	trail := trails[_]
	trail.enable_log_file_validation == true
	j := fugue.allow_resource(trail)
}

policy[j] {
	trail := trails[_]
	not trail.enable_log_file_validation == true
	j := fugue.deny_resource(trail)
}
