locals {
  prefix = "acme-${var.environment}"
  tags   = { Environment = var.environment, Team = "platform" }
}

resource "aws_kms_key" "data" {
  description         = "Key for ${local.prefix} data"
  enable_key_rotation = false
  tags                = local.tags
}

resource "aws_s3_bucket" "app" {
  for_each = var.buckets
  bucket   = "${local.prefix}-${each.key}"
  tags     = merge(local.tags, { Purpose = each.key })
}

resource "aws_s3_bucket_server_side_encryption_configuration" "app" {
  for_each = { for name, b in var.buckets : name => b if b.encrypted }
  bucket   = aws_s3_bucket.app[each.key].id

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.data.arn
    }
  }
}

resource "aws_security_group" "bastion" {
  name        = "${local.prefix}-bastion"
  description = "SSH to the bastion"

  dynamic "ingress" {
    for_each = var.admin_cidrs
    content {
      description = "SSH from ${ingress.value}"
      from_port   = 22
      to_port     = 22
      protocol    = "tcp"
      cidr_blocks = [ingress.value]
    }
  }
}

resource "aws_security_group" "web" {
  name = "${local.prefix}-web"

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}
