package rules.single_info_v0

resource_type := "aws_s3_bucket"

deny[info] {
	input.acl == "public-read"
	info := {"message": sprintf("bucket %s is public", [input.bucket]), "attributes": [["acl"]]}
}
