# Single-resource rule, Rego v0, CloudFormation input; severity and
# remediation per result.
package rules.cfn_kms_rotation

resource_type = "AWS::KMS::Key"

input_type = "cfn"

metadata := {
	"id": "SNYK-CC-CFN-KMS-1",
	"title": "KMS key rotation is disabled",
	"description": "Customer managed keys should rotate their backing key material yearly.",
	"platform": ["AWS"],
	"severity": "low",
}

deny[info] {
	not input.EnableKeyRotation == true
	info := {
		"message": sprintf("KMS key %s does not enable key rotation", [input.id]),
		"attributes": [["EnableKeyRotation"]],
		"severity": "Medium",
		"remediation": "Set EnableKeyRotation: true on the AWS::KMS::Key resource.",
	}
}
