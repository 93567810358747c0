# Network ACL entries do not allow SSH or RDP from anywhere: one result per
# entry and port.
package rules.cfn_nacl_admin_ports

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-018",
	"title": "Network ACLs do not allow SSH or RDP from the internet",
	"description": "An inbound AWS::EC2::NetworkAclEntry allowing port 22 or 3389 from 0.0.0.0/0 (or ::/0) lets the whole internet reach the remote administration ports of every subnet associated with the ACL.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "high",
	"aliases": ["CKV_AWS_231", "CKV_AWS_232"],
	"controls": ["CIS-AWS_v1.5.0_5.1"],
	"remediation": {"cloudformation": "Narrow CidrBlock (or Ipv6CidrBlock) of the entry to the addresses that administer the hosts, or make it a deny entry; reach hosts through a bastion or Session Manager instead."},
	"references": [
		"https://docs.aws.amazon.com/vpc/latest/userguide/vpc-network-acls.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-networkaclentry.html",
	],
}

world(entry) if object.get(entry, "CidrBlock", "") in aws.world_cidrs

world(entry) if object.get(entry, "Ipv6CidrBlock", "") in aws.world_cidrs

inbound(entry) if not aws.cfn_true(object.get(entry, "Egress", false))

deny contains info if {
	some entry in snyk.resources("AWS::EC2::NetworkAclEntry")
	inbound(entry)
	lower(object.get(entry, "RuleAction", "")) == "allow"
	world(entry)
	range := object.get(entry, "PortRange", {})
	some port, name in aws.admin_ports
	aws.covers_port(object.get(entry, "Protocol", "-1"), object.get(range, "From", 0), object.get(range, "To", 65535), port)
	info := {
		"resource": entry,
		"result_tag": sprintf("port[%d]", [port]),
		"message": sprintf("The entry allows %s (port %d) from anywhere.", [name, port]),
	}
}

resources contains {"resource": entry} if some entry in snyk.resources("AWS::EC2::NetworkAclEntry")
