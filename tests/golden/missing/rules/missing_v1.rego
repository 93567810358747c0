package rules.missing_v1

import data.snyk
import rego.v1

input_type := "cloud_scan"

deny contains info if {
	not any_rotating_key
	info := {"resource_type": "aws_kms_key", "message": "no rotating KMS key"}
}

any_rotating_key if {
	some key in snyk.resources("aws_kms_key")
	key.enable_key_rotation
}

resources contains info if {
	some key in snyk.resources("aws_kms_key")
	key.enable_key_rotation
	info := {"resource": key}
}
