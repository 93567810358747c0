# Single-resource rule, Rego v1: SSH (22) reachable from the whole internet.
package rules.sg_ingress_open_ssh

import rego.v1

resource_type := "aws_security_group"

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-EC2-022",
	"title": "Security group allows SSH from 0.0.0.0/0",
	"description": "Ingress to port 22 from any address exposes SSH to brute-force attacks and exploitation.",
	"platform": ["AWS"],
	"remediation": {"terraform": "Restrict `cidr_blocks` of ingress rules covering port 22 to trusted ranges."},
	"references": "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-groups.html",
	"category": "Network",
	"labels": ["EC2", "SSH"],
	"service_group": "EC2",
	"controls": ["CIS-AWS_v1.4.0_5.2"],
	"severity": "High",
	"kind": "vulnerability",
}

covers_ssh(rule) if rule.protocol == "-1"

covers_ssh(rule) if {
	rule.from_port <= 22
	rule.to_port >= 22
}

deny contains info if {
	some i, rule in input.ingress
	covers_ssh(rule)
	some j, cidr in object.get(rule, "cidr_blocks", [])
	cidr == "0.0.0.0/0"
	info := {
		"message": sprintf("Security group %s allows SSH from 0.0.0.0/0 (ingress rule %d)", [input.id, i]),
		"attributes": [["ingress", i, "from_port"], ["ingress", i, "cidr_blocks", j]],
		"severity": "Critical",
		"remediation": "Replace 0.0.0.0/0 with the CIDR range of your VPN or bastion network.",
	}
}

deny contains info if {
	some i, rule in input.ingress
	covers_ssh(rule)
	some j, cidr in object.get(rule, "ipv6_cidr_blocks", [])
	cidr == "::/0"
	info := {
		"message": sprintf("Security group %s allows SSH from ::/0 (ingress rule %d)", [input.id, i]),
		"attributes": [["ingress", i, "from_port"], ["ingress", i, "ipv6_cidr_blocks", j]],
		"severity": "high",
		"remediation": "Remove ::/0 from ipv6_cidr_blocks of the SSH ingress rule.",
	}
}
