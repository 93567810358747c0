# Multi-resource rule, Rego v1: several failing results on ONE security group,
# told apart by result_tag (one per ingress rule), with matching
# resources entries carrying the same tags.
package rules.sg_open_admin_ports

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-EC2-003",
	"title": "Security group exposes administration ports to the internet",
	"description": "SSH (22) and RDP (3389) should never be reachable from 0.0.0.0/0 or ::/0.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Limit ingress on ports 22 and 3389 to internal CIDR ranges or use SSM Session Manager."},
	"category": "Network",
	"service_group": "EC2",
	"controls": ["CIS-AWS_v1.4.0_5.2", "CIS-AWS_v1.4.0_5.3"],
	"severity": "High",
}

admin_ports := {22, 3389}

security_groups := snyk.resources("aws_security_group")

public_cidr(rule) if "0.0.0.0/0" in object.get(rule, "cidr_blocks", [])

public_cidr(rule) if "::/0" in object.get(rule, "ipv6_cidr_blocks", [])

covers(rule, _) if rule.protocol == "-1"

covers(rule, port) if {
	rule.from_port <= port
	port <= rule.to_port
}

exposed_ports(rule) := {p | some p in admin_ports; covers(rule, p)}

tag(rule) := sprintf("ingress[%d]", [rule.from_port])

deny contains info if {
	some sg in security_groups
	some i, rule in sg.ingress
	public_cidr(rule)
	ports := exposed_ports(rule)
	count(ports) > 0
	port_list := concat(", ", [sprintf("%d", [p]) | some p in sort(ports)])
	info := {
		"resource": sg,
		"result_tag": tag(rule),
		"message": sprintf("Security group %s allows port(s) %s from the internet", [sg.name, port_list]),
		"attributes": [["ingress", i, "from_port"], ["ingress", i, "to_port"]],
	}
}

resources contains info if {
	some sg in security_groups
	some rule in sg.ingress
	info := {"resource": sg, "result_tag": tag(rule)}
}
