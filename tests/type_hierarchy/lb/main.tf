resource "aws_lb" "public" {
  name     = "public"
  internal = false
}

resource "aws_alb" "legacy" {
  name     = "legacy"
  internal = false
}

resource "aws_lb" "internal" {
  name     = "internal"
  internal = true
}
