# file functions read inside the scanned tree; try() falls back; sensitive() keeps its value
variable "rules" {
  default = [{ id = "a" }, { id = "b", transition = { days = 30 } }]
}

resource "aws_sqs_queue" "files" {
  name   = file("${path.module}/hello.txt")
  policy = templatefile("${path.module}/policy.tpl", { name = "files", queues = ["a", "b"] })
  tags = {
    encoded = filebase64("${path.module}/hello.txt")
    present = fileexists("${path.module}/hello.txt") ? "yes" : "no"
    missing = fileexists("${path.module}/missing.txt") ? "yes" : "no"
    secret  = sensitive("s3cr3t")
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "rules" {
  bucket      = "rules"
  transitions = try(flatten([var.rules[0].transition]), [])
  expiration  = try(flatten([var.rules[1].transition]), [])
}
