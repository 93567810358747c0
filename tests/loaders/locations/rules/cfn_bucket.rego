package rules.cfn_bucket

import rego.v1

input_type := "cfn"

resource_type := "AWS::S3::Bucket"

deny contains info if {
	input.AccessControl == "PublicRead"
	info := {"message": "bucket is public", "attributes": [["AccessControl"]]}
}

deny contains info if {
	input.VersioningConfiguration.Status != "Enabled"
	info := {
		"message": "versioning is off",
		"attributes": [["VersioningConfiguration", "Status"]],
		"result_tag": "versioning",
	}
}
