# Variables without a value or default: a string one is its own name, any other is null
variable "name" {
  type = string
}

variable "labels" {
  type = map(string)
}

variable "defaults" {
  type    = map(string)
  default = { team = "storage" }
}

variable "untyped" {}

resource "aws_s3_bucket" "logs" {
  bucket_prefix = "logs-${var.name}"
  acl           = var.untyped
  tags          = merge(var.labels, var.defaults, { owner = var.name })
}

module "child" {
  source = "./child"
}
