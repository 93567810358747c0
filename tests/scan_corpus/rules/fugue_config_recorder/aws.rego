# Multi-resource fugue rule, Rego v1: fugue.input_resource_types and
# missing_resource (without message); no input_type.
package rules.fugue_config_recorder

import data.fugue
import rego.v1

__rego__metadoc__ := {
	"id": "FG_R00036_CONFIG",
	"title": "AWS Config should be enabled",
	"description": "An AWS Config recorder keeps the configuration history needed for audits and incident response.",
	"custom": {
		"severity": "Medium",
		"controls": {"CIS-AWS_v1.4.0": ["CIS-AWS_v1.4.0_3.5"]},
	},
}

resource_type := "MULTIPLE"

aws_input if {
	some t in fugue.input_resource_types
	startswith(t, "aws_")
}

recorders := fugue.resources("aws_config_configuration_recorder")

policy contains j if {
	aws_input
	count(recorders) == 0
	j := fugue.missing_resource("aws_config_configuration_recorder")
}

policy contains j if {
	some recorder in recorders
	j := fugue.allow_resource(recorder)
}
