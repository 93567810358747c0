variable "bucket_names" {
  default = ["logs", "assets", "backups"]
}

variable "queues" {
  default = {
    orders   = { retention = 86400, fifo = false }
    payments = { retention = 345600, fifo = true }
  }
}

variable "create_replica" {
  default = false
}

resource "aws_s3_bucket" "by_count" {
  count  = length(var.bucket_names)
  bucket = "acme-${var.bucket_names[count.index]}-${count.index}"
}

resource "aws_s3_bucket" "by_set" {
  for_each = toset(["alpha", "beta"])
  bucket   = "acme-${each.key}"
  tags = {
    Name = each.value
  }
}

resource "aws_sqs_queue" "queue" {
  for_each                  = var.queues
  name                      = each.value.fifo ? "${each.key}.fifo" : each.key
  fifo_queue                = each.value.fifo
  message_retention_seconds = each.value.retention
}

resource "aws_s3_bucket" "replica" {
  count  = var.create_replica ? 1 : 0
  bucket = "acme-replica"
}

resource "aws_s3_bucket_versioning" "by_count" {
  count  = 2
  bucket = aws_s3_bucket.by_count[count.index].bucket
  versioning_configuration {
    status = count.index == 0 ? "Enabled" : "Suspended"
  }
}
