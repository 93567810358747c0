package rules.single_message_v0

resource_type = "aws_kms_key"

deny[msg] {
	not input.enable_key_rotation
	msg := "key rotation is disabled"
}
