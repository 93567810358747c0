package rules.single_boolean_v1

import rego.v1

resource_type := "aws_kms_key"

default deny := false

deny if input.enable_key_rotation == false
