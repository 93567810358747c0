# dynamic blocks: expanded beside the static blocks of the same type; a body that
# holds a dynamic block also has "dynamic": [] (as snyk's loader gives it)
variable "ports" {
  type    = list(number)
  default = [443, 80]
}

variable "extra_rules" {
  type = list(any)
}

resource "aws_security_group" "web" {
  name = "web"

  ingress {
    from_port = 22
    to_port   = 22
    protocol  = "tcp"
  }

  dynamic "ingress" {
    for_each = var.ports
    content {
      from_port = ingress.value
      to_port   = ingress.value
      protocol  = "tcp"
    }
  }

  dynamic "egress" {
    for_each = var.extra_rules
    content {
      from_port = egress.value
    }
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "logs" {
  bucket = "logs"

  rule {
    id     = "archive"
    status = "Enabled"

    dynamic "transition" {
      for_each = { STANDARD_IA = 30, GLACIER = 90 }
      iterator = step
      content {
        days          = step.value
        storage_class = step.key
      }
    }
  }
}
