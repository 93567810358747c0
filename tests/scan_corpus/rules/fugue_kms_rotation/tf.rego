# Single-resource fugue rule, Rego v0: `default allow = false` / `allow { }`.
package rules.fugue_kms_rotation

import data.fugue

__rego__metadoc__ := {
	"id": "FG_R00036",
	"title": "KMS CMK rotation should be enabled",
	"description": "Rotating customer master keys limits the amount of data encrypted under one key version.",
	"custom": {
		"severity": "Medium",
		"controls": {
			"CIS-AWS_v1.2.0": ["CIS-AWS_v1.2.0_2.8"],
			"NIST-800-53_vRev4": ["NIST-800-53_vRev4_SC-12"],
		},
	},
}

resource_type = "aws_kms_key"

default allow = false

allow {
	input.enable_key_rotation == true
}
