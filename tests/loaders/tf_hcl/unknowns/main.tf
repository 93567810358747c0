variable "db_password" {
  type      = string
  sensitive = true
}

variable "subnet_ids" {
  type = list(string)
}

locals {
  a = local.b
  b = local.a
  known = "ok"
}

resource "aws_db_instance" "db" {
  identifier          = "db-${local.known}"
  engine              = "postgres"
  password            = var.db_password
  storage_encrypted   = true
  cycle               = local.a
  made_up             = not_a_function(1)
  provider_function   = provider::aws::arn_parse("arn:aws:s3:::x")
  type_error          = 1 + "abc"
  null_in_template    = "prefix-${null}"
  partially_known     = [var.subnet_ids, "subnet-1"]
  from_file           = file("${path.module}/init.sql")
  with_try            = try(var.subnet_ids[0], "fallback")
  bad_regex           = regex("[", "abc")
  vpc_security_group_ids = var.subnet_ids
}

resource "aws_instance" "unknown_count" {
  count         = length(var.subnet_ids)
  ami           = "ami-0abc"
  instance_type = "t3.nano"
  subnet_id     = var.subnet_ids[count.index]
}
