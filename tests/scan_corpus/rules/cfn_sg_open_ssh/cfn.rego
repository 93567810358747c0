# Multi-resource rule, Rego v0, CloudFormation input.
package rules.cfn_sg_open_ssh

import data.snyk

resource_type := "MULTIPLE"

input_type := "cfn"

metadata := {
	"id": "SNYK-CC-CFN-EC2-1",
	"title": "Security group allows SSH from the internet",
	"description": "Ingress to port 22 from 0.0.0.0/0 or ::/0 exposes SSH to the internet.",
	"platform": ["AWS"],
	"remediation": {"cloudformation": "Restrict `CidrIp`/`CidrIpv6` of ingress rules covering port 22."},
	"service_group": "EC2",
	"severity": "High",
}

security_groups := snyk.resources("AWS::EC2::SecurityGroup")

open_cidr_field(rule) = "CidrIp" {
	rule.CidrIp == "0.0.0.0/0"
}

open_cidr_field(rule) = "CidrIpv6" {
	rule.CidrIpv6 == "::/0"
}

covers_ssh(rule) {
	rule.IpProtocol == "-1"
}

covers_ssh(rule) {
	to_number(rule.FromPort) <= 22
	to_number(rule.ToPort) >= 22
}

deny[info] {
	sg := security_groups[_]
	rule := sg.SecurityGroupIngress[i]
	covers_ssh(rule)
	field := open_cidr_field(rule)
	info := {
		"resource": sg,
		"message": sprintf("%s allows SSH from %s", [sg.id, rule[field]]),
		"attributes": [["SecurityGroupIngress", i, field], ["SecurityGroupIngress", i, "FromPort"]],
	}
}

resources[info] {
	sg := security_groups[_]
	info := {"resource": sg, "attributes": [["SecurityGroupIngress"]]}
}
