package rules.api_input_v0

import data.snyk

deny[info] {
	info := {
		"message": "input facts",
		"context": {
			"input_type": snyk.input_type,
			"resource_types": snyk.input_resource_types,
			"has_kms": snyk.input_resource_types["aws_kms_key"],
		},
	}
}
