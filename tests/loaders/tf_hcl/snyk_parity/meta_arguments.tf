# provider is kept; a count that cannot be evaluated gives instance [0]
variable "create" {}

resource "aws_sqs_queue" "backup" {
  provider = aws.backup
  name     = "backup"
}

resource "aws_sqs_queue" "maybe" {
  count = var.create ? 1 : 0
  name  = "maybe-${count.index}"
}
