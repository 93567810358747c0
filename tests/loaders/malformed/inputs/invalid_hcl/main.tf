resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}

resource "aws_s3_bucket_acl" "logs" {
  bucket = aws_s3_bucket.logs.id
  acl    = "private"
