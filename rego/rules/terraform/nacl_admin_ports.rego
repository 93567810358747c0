# Network ACLs do not admit SSH or RDP from the internet.
package rules.tf_aws_nacl_admin_ports

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-028",
	"title": "Network ACLs do not allow SSH or RDP from the internet",
	"description": "A network ACL entry allowing port 22 or 3389 from 0.0.0.0/0 (or ::/0) lets the whole internet reach remote administration ports of every subnet it is associated with. The rule reads aws_network_acl ingress blocks and aws_network_acl_rule resources.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "high",
	"aliases": ["CKV_AWS_231", "CKV_AWS_232"],
	"controls": ["CIS-AWS_v1.5.0_5.1"],
	"remediation": {"terraform": "Narrow the entry's cidr_block to the administrators' addresses, or deny those ports from 0.0.0.0/0 in a rule numbered before it."},
	"references": ["https://docs.aws.amazon.com/vpc/latest/userguide/vpc-network-acls.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/network_acl_rule"],
}

world(entry) if object.get(entry, "cidr_block", "") in aws.world_cidrs

world(entry) if object.get(entry, "ipv6_cidr_block", "") in aws.world_cidrs

# The admin ports an allow entry from anywhere takes in.
open_ports(entry, action_key) := {port |
	lower(object.get(entry, action_key, "")) == "allow"
	world(entry)
	some port, _ in aws.admin_ports
	aws.covers_port(object.get(entry, "protocol", "-1"), object.get(entry, "from_port", 0), object.get(entry, "to_port", 65535), port)
}

deny contains info if {
	some acl in snyk.resources("aws_network_acl")
	some i, entry in object.get(acl, "ingress", [])
	some port in open_ports(entry, "action")
	info := {
		"resource": acl,
		"result_tag": sprintf("ingress[%v].port[%d]", [object.get(entry, "rule_no", i), port]),
		"message": sprintf("Ingress entry %v allows %s (port %d) from anywhere.", [object.get(entry, "rule_no", i), aws.admin_ports[port], port]),
		"attributes": [["ingress", i]],
	}
}

deny contains info if {
	some entry in snyk.resources("aws_network_acl_rule")
	object.get(entry, "egress", false) != true
	some port in open_ports(entry, "rule_action")
	info := {
		"resource": entry,
		"result_tag": sprintf("port[%d]", [port]),
		"message": sprintf("The entry allows %s (port %d) from anywhere.", [aws.admin_ports[port], port]),
	}
}

resources contains {"resource": r} if {
	some type in ["aws_network_acl", "aws_network_acl_rule"]
	some r in snyk.resources(type)
}
