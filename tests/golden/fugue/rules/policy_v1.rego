package rules.fugue_policy_v1

import data.fugue
import rego.v1

resource_type := "MULTIPLE"

policy contains j if {
	some key in fugue.resources("aws_kms_key")
	key.enable_key_rotation
	j := fugue.allow_resource(key)
}

policy contains j if {
	some key in fugue.resources("aws_kms_key")
	not key.enable_key_rotation
	j := fugue.deny_resource(key)
}

policy contains j if {
	count(fugue.resources("aws_security_group")) == 0
	j := fugue.missing_resource("aws_security_group")
}
