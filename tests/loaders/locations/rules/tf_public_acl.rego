package rules.tf_public_acl

import rego.v1

input_type := "tf"

resource_type := "aws_s3_bucket"

deny contains info if {
	input.acl == "public-read"
	info := {"message": "bucket is public", "attributes": [["acl"]]}
}

deny contains info if {
	input.versioning[0].enabled == false
	info := {
		"message": "versioning is off",
		"attributes": [["versioning", 0, "enabled"]],
		"result_tag": "versioning",
	}
}
