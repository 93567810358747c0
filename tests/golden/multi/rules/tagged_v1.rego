package rules.multi_tagged_v1

import data.snyk
import rego.v1

metadata := {"id": "MULTI_TAG", "severity": "low"}

world_open(rule) if "0.0.0.0/0" in rule.cidr_blocks

deny contains info if {
	some sg in snyk.resources("aws_security_group")
	some i, rule in sg.ingress
	world_open(rule)
	rule.from_port != 443
	info := {
		"resource": sg,
		"message": sprintf("ingress %d is open", [rule.from_port]),
		"result_tag": sprintf("ingress[%d]", [rule.from_port]),
		"attributes": [["ingress", i, "cidr_blocks"]],
		"severity": "Critical",
		"context": {"port": rule.from_port},
	}
}

resources contains info if {
	some sg in snyk.resources("aws_security_group")
	some i, rule in sg.ingress
	info := {
		"resource": sg,
		"result_tag": sprintf("ingress[%d]", [rule.from_port]),
		"attributes": [["ingress", i, "from_port"]],
	}
}
