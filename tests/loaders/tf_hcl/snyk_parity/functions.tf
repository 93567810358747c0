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

resource "aws_s3_object" "digests" {
  bucket      = "digests"
  key         = "hello.txt"
  etag        = filemd5("${path.module}/hello.txt")
  source_hash = filesha256("${path.module}/hello.txt")
  metadata = {
    sha1      = filesha1("${path.module}/hello.txt")
    sha512    = filesha512("${path.module}/hello.txt")
    b64sha256 = filebase64sha256("${path.module}/hello.txt")
    b64sha512 = filebase64sha512("${path.module}/hello.txt")
    listed    = join(",", fileset(path.module, "*.{txt,tpl}"))
  }
}
