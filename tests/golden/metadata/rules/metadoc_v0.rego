package rules.meta_metadoc

__rego__metadoc__ := {
	"id": "FG_R00100",
	"title": "KMS keys rotate",
	"description": "Legacy metadoc",
	"custom": {"severity": "Low", "controls": {"CIS-AWS": {"v1.2.0": ["2.8"]}}},
}

resource_type = "aws_kms_key"

default deny = false

deny {
	input.enable_key_rotation == false
}
