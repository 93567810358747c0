package rules.single_tagged_v1

import rego.v1

resource_type := "aws_security_group"

deny contains info if {
	some i, rule in input.ingress
	"0.0.0.0/0" in rule.cidr_blocks
	rule.from_port != 443
	info := {
		"message": sprintf("port %d open to the world", [rule.from_port]),
		"result_tag": sprintf("ingress[%d]", [rule.from_port]),
		"attributes": [["ingress", i, "cidr_blocks"]],
	}
}
