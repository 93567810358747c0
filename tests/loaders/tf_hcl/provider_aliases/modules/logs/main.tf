variable "name" {}

resource "aws_cloudwatch_log_group" "this" {
  name              = "/acme/${var.name}"
  retention_in_days = 90
}
