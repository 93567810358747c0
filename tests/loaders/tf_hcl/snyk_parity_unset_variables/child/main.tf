variable "env" {
  type = string
}

resource "aws_sqs_queue" "queue" {
  name = "queue-${var.env}"
}
