variable "ingress_rules" {
  default = [
    { port = 22, cidrs = ["10.0.0.0/8"], description = "ssh" },
    { port = 443, cidrs = ["0.0.0.0/0"], description = "https" },
  ]
}

variable "lifecycle_rules" {
  default = {
    logs = 30
    tmp  = 7
  }
}

resource "aws_security_group" "app" {
  name   = "app"
  vpc_id = "vpc-0123456789abcdef0"

  dynamic "ingress" {
    for_each = var.ingress_rules
    content {
      from_port   = ingress.value.port
      to_port     = ingress.value.port
      protocol    = "tcp"
      cidr_blocks = ingress.value.cidrs
      description = "${ingress.value.description} (rule ${ingress.key})"
    }
  }

  egress {
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "logs" {
  bucket = "acme-logs"

  dynamic "rule" {
    for_each = var.lifecycle_rules
    iterator = lc
    content {
      id     = lc.key
      status = "Enabled"

      filter {
        prefix = "${lc.key}/"
      }

      expiration {
        days = lc.value
      }
    }
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "logs" {
  bucket = "acme-logs"

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = "alias/logs"
    }
    bucket_key_enabled = true
  }
}
