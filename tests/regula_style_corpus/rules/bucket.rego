package rules.bucket

resource_type = "aws_s3_bucket"

kind = "cfn"

deny[msg] {
  not input.encrypted
  msg := "bucket is not encrypted"
}
