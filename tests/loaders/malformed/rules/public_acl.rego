package rules.public_acl

import rego.v1

resource_type := "aws_s3_bucket"

deny contains info if {
	input.acl == "public-read"
	info := {"message": "bucket is public", "attributes": [["acl"]]}
}
