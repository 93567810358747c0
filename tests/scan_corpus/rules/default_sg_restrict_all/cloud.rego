# Multi-resource rule, Rego v1, cloud scans only: snyk.query with a
# non-empty scope (account and region).
package rules.default_sg_restrict_all

import data.snyk
import rego.v1

resource_type := "MULTIPLE"

input_type := "cloud_scan"

metadata := {
	"id": "SNYK-CC-AWS-EC2-DEFAULT-SG",
	"title": "Default security group does not restrict all traffic",
	"description": "The default security group of every VPC should allow no inbound traffic, so resources are never attached to it by accident.",
	"platform": ["AWS"],
	"remediation": {"console": "Remove all inbound and outbound rules from the default security group."},
	"controls": ["CIS-AWS_v1.4.0_5.3"],
	"severity": "low",
}

security_groups := snyk.query({
	"resource_type": "aws_security_group",
	"scope": {"account": "123456789012", "region": "us-east-1"},
})

default_groups := [sg | some sg in security_groups; sg.name == "default"]

deny contains info if {
	some sg in default_groups
	count(sg.ingress) > 0
	info := {
		"resource": sg,
		"message": sprintf("Default security group %s of %s has %d inbound rule(s)", [sg.id, sg.vpc_id, count(sg.ingress)]),
		"attributes": [["ingress"]],
	}
}

resources contains {"resource": sg} if some sg in default_groups
