# Single-resource fugue rule, Rego v0: `default deny = false` / `deny { }`.
package rules.fugue_kms_deletion_window

import data.fugue

__rego__metadoc__ := {
	"id": "FG_R00252",
	"title": "KMS keys should have a deletion window of at least 14 days",
	"description": "A short pending-deletion window leaves little time to notice and cancel an accidental or malicious key deletion.",
	"custom": {
		"severity": "low",
		"controls": {"ACME-Crypto_v1": ["ACME-Crypto_v1_4.2"]},
	},
}

resource_type = "aws_kms_key"

input_type = "tf"

minimum_days = 14

default deny = false

deny {
	input.deletion_window_in_days < minimum_days
}
