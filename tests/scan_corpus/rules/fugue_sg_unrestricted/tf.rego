# Multi-resource fugue rule, Rego v1 (no rego.v1 import): fugue.input_type
# and deny_resource (no message).
package rules.fugue_sg_unrestricted

import data.fugue

resource_type := "MULTIPLE"

metadata := {
	"id": "FG_R00089",
	"title": "Security groups should not allow all traffic from the internet",
	"description": "An ingress rule for protocol -1 from 0.0.0.0/0 opens every port to the internet.",
	"platform": ["AWS"],
	"service_group": "EC2",
	"severity": "Critical",
}

tf_family := {"tf_hcl", "tf_plan", "tf_state", "cloud_scan"}

unrestricted(sg) if {
	some rule in sg.ingress
	rule.protocol == "-1"
	"0.0.0.0/0" in rule.cidr_blocks
}

policy contains j if {
	fugue.input_type in tf_family
	some sg in fugue.resources("aws_security_group")
	unrestricted(sg)
	j := fugue.deny_resource(sg)
}

policy contains j if {
	fugue.input_type in tf_family
	some sg in fugue.resources("aws_security_group")
	not unrestricted(sg)
	j := fugue.allow_resource(sg)
}
