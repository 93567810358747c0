# Two buckets: one encrypted through its configuration resource, one not.
resource "aws_s3_bucket" "reports" {
  bucket = "golden-reports"
}

resource "aws_s3_bucket" "scratch" {
  bucket = "golden-scratch"
}

resource "aws_s3_bucket_server_side_encryption_configuration" "reports" {
  bucket = aws_s3_bucket.reports.bucket

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "AES256"
    }
  }
}
