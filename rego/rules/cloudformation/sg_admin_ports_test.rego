package rules.cfn_sg_admin_ports_test

import data.rules.cfn_sg_admin_ports as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::EC2::SecurityGroup": {
			"Inline": {"attributes": {"SecurityGroupIngress": [
				{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "0.0.0.0/0"},
				{"IpProtocol": "-1", "CidrIpv6": "::/0"},
			]}},
			"Separate": {"attributes": {}},
			"Private": {"attributes": {"SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22, "CidrIp": "10.0.0.0/8"}]}},
		},
		"AWS::EC2::SecurityGroupIngress": {"Rdp": {"attributes": {"GroupId": "Separate", "IpProtocol": "tcp", "FromPort": 3389, "ToPort": 3389, "CidrIp": "0.0.0.0/0"}}},
	},
}

test_open_admin_ports if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["Inline", "Inline", "port[22]"], ["Inline", "Inline", "port[3389]"], ["Separate", "Rdp", "port[3389]"]}
	count(rule.resources) == 6 with input as state
}
