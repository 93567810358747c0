resource "aws_s3_bucket" "trail" {
  bucket = "team-trail-logs"
}

resource "aws_s3_bucket_policy" "trail" {
  bucket = aws_s3_bucket.trail.bucket
  policy = "{}"
}

# Writes to the bucket above, without waiting for its policy.
resource "aws_cloudtrail" "team" {
  name           = "team"
  s3_bucket_name = aws_s3_bucket.trail.bucket
}

# Writes to a bucket this configuration does not declare.
resource "aws_cloudtrail" "external" {
  name           = "external"
  s3_bucket_name = "someone-elses-bucket"
}
