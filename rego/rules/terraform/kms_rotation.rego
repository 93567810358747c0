# KMS keys rotate their key material yearly. Judged through the legacy
# fugue API (policy[j], Rego v0), as older corpora are.
package rules.tf_aws_kms_rotation

import data.fugue

metadata := {
	"id": "RE-AWS-016",
	"title": "KMS keys have automatic rotation enabled",
	"description": "Automatic rotation creates new key material every year (or on the configured period) while keeping old material for decryption, limiting how much data one key version protects. Only symmetric encryption keys support it; other key specs are not checked.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "KMS",
	"severity": "medium",
	"aliases": ["CKV_AWS_7", "aws-kms-auto-rotate-keys"],
	"remediation": {
		"terraform": "Set enable_key_rotation = true on the aws_kms_key.",
		"console": "In KMS, open the key's Key rotation tab and enable automatic rotation.",
	},
	"references": [
		"https://docs.aws.amazon.com/kms/latest/developerguide/rotate-keys.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/kms_key#enable_key_rotation",
	],
}

input_type := "tf"

resource_type := "MULTIPLE"

symmetric(key) {
	object.get(key, "customer_master_key_spec", "SYMMETRIC_DEFAULT") == "SYMMETRIC_DEFAULT"
}

policy[j] {
	key := fugue.resources("aws_kms_key")[_]
	symmetric(key)
	key.enable_key_rotation == true
	j := fugue.allow_resource(key)
}

policy[j] {
	key := fugue.resources("aws_kms_key")[_]
	symmetric(key)
	not key.enable_key_rotation
	j := fugue.deny_resource_with_message(key, "Automatic key rotation is not enabled.")
}
