package rules.t2_only

resource_type = "aws_instance"

valid_instance_types = {"t2.micro", "t2.small"}

default allow = false

allow {
  valid_instance_types[input.instance_type]
}
