# Every VPC has a flow log.
package rules.cfn_vpc_flow_logs

import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-017",
	"title": "VPCs have flow logs",
	"description": "VPC flow logs record the accepted and rejected traffic of the VPC's network interfaces, which investigations of an intrusion depend on. The rule reads AWS::EC2::FlowLog resources whose ResourceId is the VPC.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "VPC",
	"severity": "medium",
	"aliases": ["CKV2_AWS_11"],
	"controls": ["CIS-AWS_v1.5.0_3.9"],
	"remediation": {"cloudformation": "Add an AWS::EC2::FlowLog with ResourceType: VPC, ResourceId: !Ref TheVpc and TrafficType: ALL (or at least REJECT)."},
	"references": [
		"https://docs.aws.amazon.com/vpc/latest/userguide/flow-logs.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-flowlog.html",
	],
}

relation := "AWS::EC2::VPC.FlowLog"

deny contains info if {
	some vpc in snyk.resources("AWS::EC2::VPC")
	count(snyk.relates(vpc, relation)) == 0
	info := {"resource": vpc, "message": "No flow log records the VPC's traffic."}
}

resources contains {"resource": vpc} if some vpc in snyk.resources("AWS::EC2::VPC")

resources contains info if {
	some vpc in snyk.resources("AWS::EC2::VPC")
	some log in snyk.relates(vpc, relation)
	info := {"primary_resource": vpc, "resource": log}
}
