package rules.single_info_v1

import rego.v1

resource_type := "aws_s3_bucket"

metadata := {"id": "SINGLE_V1", "severity": "Medium"}

deny contains info if {
	input.acl == "public-read"
	info := {
		"message": "public bucket",
		"attributes": [["acl"], ["bucket"]],
		"severity": "High",
		"remediation": "set acl to private",
	}
}
