resource "aws_s3_bucket" "trail" {
  bucket = "org-trail-logs"
}

resource "aws_s3_bucket" "unused" {
  bucket = "unused-bucket"
}

resource "aws_cloudtrail" "org" {
  name           = "org"
  s3_bucket_name = aws_s3_bucket.trail.id
  depends_on     = [aws_s3_bucket_policy.trail]
}

resource "aws_s3_bucket_policy" "trail" {
  bucket = aws_s3_bucket.trail.id
  policy = "{}"
}
