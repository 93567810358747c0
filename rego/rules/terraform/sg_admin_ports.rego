# Security groups do not open SSH or RDP to the internet, whether the rule is
# an inline ingress block or a separate rule resource attached to the group.
# One result per group and admin port.
package rules.tf_aws_sg_admin_ports

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-008",
	"title": "Security groups do not allow SSH or RDP from the internet",
	"description": "An ingress rule from 0.0.0.0/0 or ::/0 that covers port 22 (SSH) or 3389 (RDP) exposes remote administration to the whole internet. Rules are read from the group's ingress blocks and from aws_security_group_rule and aws_vpc_security_group_ingress_rule resources attached to it.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "EC2",
	"severity": "high",
	"remediation": {
		"terraform": "Restrict cidr_blocks (or cidr_ipv4/cidr_ipv6) of the rule to the addresses that administer the hosts, or reach them through AWS Systems Manager Session Manager instead of SSH/RDP.",
		"console": "In the security group's Inbound rules, change the source of the SSH/RDP rule from Anywhere to a known range.",
	},
	"references": [
		"https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html",
		"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html",
	],
}

# [resource, attribute path, protocol, from, to] for every world-open ingress
# rule of the group.
open_rules(sg) := array.concat(inline, separate) if {
	inline := [[sg, ["ingress", i], r.protocol, r.from_port, r.to_port] |
		some i, r in object.get(sg, "ingress", [])
		some cidr in array.concat(object.get(r, "cidr_blocks", []), object.get(r, "ipv6_cidr_blocks", []))
		cidr in aws.world_cidrs
	]
	attached := snyk.relates(sg, "aws_security_group")
	separate := array.concat(
		[[r, [], r.protocol, r.from_port, r.to_port] |
			some r in attached
			r._type == "aws_security_group_rule"
			r.type == "ingress"
			some cidr in array.concat(object.get(r, "cidr_blocks", []), object.get(r, "ipv6_cidr_blocks", []))
			cidr in aws.world_cidrs
		],
		[[r, [], r.ip_protocol, object.get(r, "from_port", 0), object.get(r, "to_port", 65535)] |
			some r in attached
			r._type == "aws_vpc_security_group_ingress_rule"
			some field in ["cidr_ipv4", "cidr_ipv6"]
			r[field] in aws.world_cidrs
		],
	)
}

deny contains info if {
	some sg in snyk.resources("aws_security_group")
	some [resource, path, protocol, from, to] in open_rules(sg)
	some port, service in aws.admin_ports
	aws.covers_port(protocol, from, to, port)
	info := {
		"primary_resource": sg,
		"resource": resource,
		"result_tag": sprintf("port[%d]", [port]),
		"message": sprintf("%s (port %d) is open to the internet.", [service, port]),
		"attributes": [path],
	}
}

resources contains info if {
	some sg in snyk.resources("aws_security_group")
	some port, _ in aws.admin_ports
	info := {"resource": sg, "result_tag": sprintf("port[%d]", [port])}
}
