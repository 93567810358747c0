# Legacy fugue rule (Rego v0): KMS keys rotate.
package rules.example_kms_rotation

import data.fugue

__rego__metadoc__ := {
	"id": "EXAMPLE_004",
	"title": "KMS keys have rotation enabled",
	"custom": {"severity": "Medium"},
}

resource_type = "MULTIPLE"

policy[j] {
	key := fugue.resources("aws_kms_key")[_]
	key.enable_key_rotation == true
	j := fugue.allow_resource(key)
}

policy[j] {
	key := fugue.resources("aws_kms_key")[_]
	not key.enable_key_rotation
	j := fugue.deny_resource_with_message(key, "Key rotation is disabled.")
}
