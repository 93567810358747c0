variable "vpc_id" {}
variable "cidr" {}
variable "name" {}

variable "public" {
  default = false
}

resource "aws_subnet" "this" {
  vpc_id                  = var.vpc_id
  cidr_block              = var.cidr
  map_public_ip_on_launch = var.public
  tags = {
    Name   = var.name
    Module = path.module
  }
}

output "cidr" {
  value = aws_subnet.this.cidr_block
}
