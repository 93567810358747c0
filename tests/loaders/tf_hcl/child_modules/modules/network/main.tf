variable "cidr_block" {
  type = string
}

variable "name" {
  type = string
}

resource "aws_vpc" "this" {
  cidr_block = var.cidr_block
  tags = {
    Name = var.name
  }
}

module "private" {
  source = "./subnet"
  count  = 2
  vpc_id = aws_vpc.this.id
  cidr   = cidrsubnet(var.cidr_block, 8, count.index)
  name   = "${var.name}-private-${count.index}"
}

output "vpc_id" {
  value = aws_vpc.this.id
}

output "first_subnet_cidr" {
  value = module.private[0].cidr
}
