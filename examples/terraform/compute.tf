# A bastion host with a public address, in the bastion security group, running
# with an instance profile whose role has administrator access.
resource "aws_iam_role" "bastion" {
  name = "${local.prefix}-bastion"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "ec2.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_iam_role_policy_attachment" "bastion_admin" {
  role       = aws_iam_role.bastion.name
  policy_arn = "arn:aws:iam::aws:policy/AdministratorAccess"
}

resource "aws_iam_instance_profile" "bastion" {
  name = "${local.prefix}-bastion"
  role = aws_iam_role.bastion.name
}

resource "aws_instance" "bastion" {
  ami                         = "ami-0c55b159cbfafe1f0"
  instance_type               = "t3.micro"
  associate_public_ip_address = true
  vpc_security_group_ids      = [aws_security_group.bastion.id]
  iam_instance_profile        = aws_iam_instance_profile.bastion.name

  root_block_device {
    encrypted = true
  }

  metadata_options {
    http_tokens = "optional"
  }
}

# Behind an internet-facing load balancer that only opens HTTPS.
resource "aws_lb" "web" {
  name               = "${local.prefix}-web"
  internal           = false
  load_balancer_type = "application"
  security_groups    = [aws_security_group.web.id]
}
