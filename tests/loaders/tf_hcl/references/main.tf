resource "aws_s3_bucket" "data" {
  bucket = "acme-data-bucket"
}

resource "aws_s3_bucket_public_access_block" "data" {
  bucket                  = aws_s3_bucket.data.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_policy" "data" {
  bucket = aws_s3_bucket.data.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "DenyInsecure"
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = ["${aws_s3_bucket.data.arn}/*", aws_s3_bucket.data.arn]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}

resource "aws_kms_key" "logs" {
  description         = "log key"
  enable_key_rotation = true
}

resource "aws_cloudwatch_log_group" "app" {
  name       = "/app/${aws_s3_bucket.data.bucket}"
  kms_key_id = aws_kms_key.logs.arn
}

resource "aws_instance" "node" {
  count         = 2
  ami           = "ami-12345678"
  instance_type = "t3.small"
}

resource "aws_eip" "node" {
  count    = 2
  instance = aws_instance.node[count.index].id
}

resource "aws_lb_target_group_attachment" "all" {
  target_group_arn = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg/abc"
  target_id        = join(",", aws_instance.node[*].id)
}

resource "aws_eip_association" "second" {
  instance_id   = element(aws_instance.node, 1).id
  instance_type = values({ only = aws_instance.node[0] })[0].instance_type
}
