# Single-resource rule, Rego v1 (OPA 1.x default, no rego.v1 import):
# a boolean `deny` complete rule.
package rules.kms_key_rotation

resource_type := "aws_kms_key"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-KMS-001",
	"title": "KMS key rotation is disabled",
	"description": "Customer managed keys should rotate their backing key material yearly.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "Set `enable_key_rotation = true`.",
		"cloudformation": "Set `EnableKeyRotation: true`.",
		"console": "In the KMS console, open the key and enable automatic key rotation.",
	},
	"references": "https://docs.aws.amazon.com/kms/latest/developerguide/rotate-keys.html",
	"category": "Data",
	"labels": ["KMS", "encryption"],
	"service_group": "KMS",
	"controls": ["CIS-AWS_v1.4.0_3.8"],
	"severity": "medium",
	"kind": "vulnerability",
}

deny if not input.enable_key_rotation
