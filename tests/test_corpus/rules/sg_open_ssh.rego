# Single-resource rule in v0 syntax: input is one aws_security_group.
package rules.sg_open_ssh

resource_type := "aws_security_group"

deny[info] {
	rule := input.ingress[i]
	rule.from_port <= 22
	rule.to_port >= 22
	rule.cidr_blocks[_] == "0.0.0.0/0"
	info := {"message": "SSH is open to the internet", "attributes": [["ingress", i]]}
}
