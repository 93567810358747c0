package rules.single_allow_v0

resource_type = "aws_s3_bucket"

default allow = false

allow {
	input.acl == "private"
}
