provider "aws" {
  region = "us-east-1"
}

resource "aws_instance" "web" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = var.instance_type
  monitoring    = var.enable_monitoring

  root_block_device {
    volume_size = var.volume_size
    encrypted   = var.environment == "prod"
  }

  tags = merge({ Environment = var.environment }, var.extra_tags)
}

resource "aws_security_group" "web" {
  name        = "web-${var.environment}"
  description = "Web servers"

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = var.allowed_cidrs
  }
}
