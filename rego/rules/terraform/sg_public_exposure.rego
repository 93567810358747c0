# A security group open to the internet beyond HTTP/HTTPS matters most when
# it is attached to something the internet can reach: an instance with a
# public IP or an internet-facing load balancer. One result per attachment.
package rules.tf_aws_sg_public_exposure

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-009",
	"title": "Internet-reachable resources do not use security groups open to the world on non-web ports",
	"description": "An instance with a public IP address or an internet-facing load balancer that uses a security group allowing ingress from 0.0.0.0/0 or ::/0 on any port other than 80 and 443 is reachable on that port from the whole internet.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "EC2",
	"severity": "critical",
	"remediation": {
		"terraform": "Narrow the group's world-open ingress to ports 80/443, restrict its sources, or detach it from public instances (associate_public_ip_address = false) and internet-facing load balancers (internal = true).",
		"console": "Edit the security group's inbound rules, or move the instance to a private subnet.",
	},
	"references": [
		"https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-groups.html",
		"https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-update-security-groups.html",
	],
}

web_ports := {80, 443}

# A world-open ingress rule of the group that reaches beyond the web ports:
# [resource, attribute path, description].
wide_open(sg) := array.concat(
	[[sg, ["ingress", i], ports(r.protocol, r.from_port, r.to_port)] |
		some i, r in object.get(sg, "ingress", [])
		world_open(r)
		not web_only(r.protocol, r.from_port, r.to_port)
	],
	[[r, [], ports(r.protocol, r.from_port, r.to_port)] |
		some r in snyk.relates(sg, "aws_security_group")
		r._type == "aws_security_group_rule"
		r.type == "ingress"
		world_open(r)
		not web_only(r.protocol, r.from_port, r.to_port)
	],
)

world_open(r) if {
	some cidr in array.concat(object.get(r, "cidr_blocks", []), object.get(r, "ipv6_cidr_blocks", []))
	cidr in aws.world_cidrs
}

web_only(protocol, from, to) if {
	not lower(sprintf("%v", [protocol])) in {"-1", "all"}
	from == to
	from in web_ports
}

ports(protocol, _, _) := "all ports" if lower(sprintf("%v", [protocol])) in {"-1", "all"}

ports(protocol, from, to) := sprintf("port %v", [from]) if {
	not lower(sprintf("%v", [protocol])) in {"-1", "all"}
	from == to
}

ports(protocol, from, to) := sprintf("ports %v-%v", [from, to]) if {
	not lower(sprintf("%v", [protocol])) in {"-1", "all"}
	from != to
}

# Resources the internet can reach, among those attached to a group.
reachable(r) if {
	r._type == "aws_instance"
	r.associate_public_ip_address == true
}

reachable(r) if {
	r._type in {"aws_lb", "aws_elb"}
	object.get(r, "internal", false) != true
}

deny contains info if {
	some sg in snyk.resources("aws_security_group")
	open := wide_open(sg)
	count(open) > 0
	some target in snyk.relates(sg, "aws_security_group")
	reachable(target)
	info := {
		"primary_resource": sg,
		"resource": open[0][0],
		"result_tag": sprintf("attached[%s]", [target._id]),
		"message": sprintf("The group opens %s to the internet and is attached to internet-reachable %s.", [open[0][2], target._id]),
		"attributes": [open[0][1]],
		"graph": [{"source": sg, "label": "attached to", "target": target}],
	}
}

resources contains info if {
	some sg in snyk.resources("aws_security_group")
	some target in snyk.relates(sg, "aws_security_group")
	reachable(target)
	info := {"primary_resource": sg, "resource": target, "result_tag": sprintf("attached[%s]", [target._id])}
}
