variable "name" {
  type = string
}

variable "cidr" {
  type = string
}

variable "enable_dns_support" {
  type    = bool
  default = true
}

resource "aws_vpc" "this" {
  cidr_block         = var.cidr
  enable_dns_support = var.enable_dns_support
  tags = {
    "Name" = var.name
  }
}

resource "aws_default_security_group" "this" {
  vpc_id = aws_vpc.this.id
}

output "vpc_id" {
  value = aws_vpc.this.id
}
