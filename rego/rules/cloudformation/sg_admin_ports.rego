# Security groups do not open SSH or RDP to the internet, in their inline
# SecurityGroupIngress or in AWS::EC2::SecurityGroupIngress resources that
# name them. One result per group and admin port.
package rules.cfn_sg_admin_ports

import data.shipped_lib.aws
import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-005",
	"title": "Security groups do not allow SSH or RDP from the internet",
	"description": "An ingress rule from 0.0.0.0/0 or ::/0 covering port 22 (SSH) or 3389 (RDP) exposes remote administration to the whole internet. Rules are read from the group's SecurityGroupIngress and from AWS::EC2::SecurityGroupIngress resources referring to it.",
	"platform": ["AWS"],
	"category": "Network security",
	"service_group": "EC2",
	"severity": "high",
	"remediation": {
		"cloudformation": "Set CidrIp/CidrIpv6 of the ingress rule to the administrators' range, or use Systems Manager Session Manager instead of opening SSH/RDP.",
		"console": "In the security group's Inbound rules, change the source of the SSH/RDP rule from Anywhere to a known range.",
	},
	"references": [
		"https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-securitygroupingress.html",
	],
}

world_open(rule) if rule.CidrIp in aws.world_cidrs

world_open(rule) if rule.CidrIpv6 in aws.world_cidrs

# [resource, attribute path, rule] for every world-open ingress rule of the group.
open_rules(sg) := array.concat(
	[[sg, ["SecurityGroupIngress", i], rule] |
		some i, rule in object.get(sg, "SecurityGroupIngress", [])
		world_open(rule)
	],
	[[rule, ["CidrIp"], rule] |
		some rule in snyk.relates(sg, "AWS::EC2::SecurityGroup")
		rule._type == "AWS::EC2::SecurityGroupIngress"
		world_open(rule)
	],
)

deny contains info if {
	some sg in snyk.resources("AWS::EC2::SecurityGroup")
	some [resource, path, rule] in open_rules(sg)
	some port, service in aws.admin_ports
	aws.covers_port(rule.IpProtocol, object.get(rule, "FromPort", 0), object.get(rule, "ToPort", 65535), port)
	info := {
		"primary_resource": sg,
		"resource": resource,
		"result_tag": sprintf("port[%d]", [port]),
		"message": sprintf("%s (port %d) is open to the internet.", [service, port]),
		"attributes": [path],
	}
}

resources contains info if {
	some sg in snyk.resources("AWS::EC2::SecurityGroup")
	some port, _ in aws.admin_ports
	info := {"resource": sg, "result_tag": sprintf("port[%d]", [port])}
}
