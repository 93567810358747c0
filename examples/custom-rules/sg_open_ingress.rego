# Single-resource rule (Rego v0): one result per world-open ingress rule, tagged by port.
package rules.example_sg_open_ingress

resource_type := "aws_security_group"

input_type := "tf"

metadata := {
	"id": "EXAMPLE_002",
	"title": "Security groups do not open admin ports to the internet",
	"severity": "Critical",
	"remediation": {"terraform": "Restrict cidr_blocks of the ingress rule."},
}

admin_ports := {22, 3389}

deny[info] {
	rule := input.ingress[i]
	rule.cidr_blocks[_] == "0.0.0.0/0"
	admin_ports[port]
	rule.from_port <= port
	port <= rule.to_port
	info := {
		"message": sprintf("Port %d is open to 0.0.0.0/0.", [port]),
		"result_tag": sprintf("ingress[%d]", [port]),
		"attributes": [["ingress", i, "cidr_blocks"]],
	}
}
