# Buckets for the test corpus fixture (fixtures/s3.rego is generated from this
# directory by `rego-engine fixture`).
resource "aws_s3_bucket" "logs" {
  bucket = "corpus-logs"
}

resource "aws_s3_bucket" "data" {
  bucket = "corpus-data"
}

resource "aws_s3_bucket" "public" {
  bucket = "corpus-public"
}

resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = aws_s3_bucket.data.bucket

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "aws:kms"
    }
  }
}

resource "aws_s3_bucket_logging" "data" {
  bucket        = aws_s3_bucket.data.id
  target_bucket = aws_s3_bucket.logs.id
  target_prefix = "data/"
}

resource "aws_security_group" "ssh" {
  name = "ssh"

  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}
