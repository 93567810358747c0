# KMS keys rotate: a legacy single-resource rule judged by an `allow` boolean
# (Rego v0). Keys other than symmetric encryption keys cannot rotate and pass.
package rules.cfn_kms_rotation

resource_type := "AWS::KMS::Key"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-010",
	"title": "KMS keys have automatic rotation enabled",
	"description": "Automatic rotation creates new key material every year (or on the configured period) while keeping old material for decryption. Only symmetric encryption keys support it.",
	"platform": ["AWS"],
	"category": "Data protection",
	"service_group": "KMS",
	"severity": "medium",
	"aliases": ["CKV_AWS_7"],
	"remediation": {
		"cloudformation": "Set EnableKeyRotation: true on the AWS::KMS::Key.",
		"console": "In KMS, open the key's Key rotation tab and enable automatic rotation.",
	},
	"references": [
		"https://docs.aws.amazon.com/kms/latest/developerguide/rotate-keys.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-kms-key.html",
	],
}

default allow = false

allow {
	lower(sprintf("%v", [input.EnableKeyRotation])) == "true"
}

allow {
	object.get(input, "KeySpec", "SYMMETRIC_DEFAULT") != "SYMMETRIC_DEFAULT"
}
