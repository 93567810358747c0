terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

resource "aws_s3_bucket" "logs" {
  bucket = "acme-logs"
  acl    = "public-read"

  versioning {
    enabled = false
  }
}
