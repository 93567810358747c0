package rules.cfn_nacl_admin_ports_test

import data.rules.cfn_nacl_admin_ports as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {"AWS::EC2::NetworkAclEntry": {
		"OfficeSsh": {"attributes": {"RuleAction": "allow", "Protocol": 6, "CidrBlock": "203.0.113.0/24", "PortRange": {"From": 22, "To": 22}}},
		"WorldHttps": {"attributes": {"RuleAction": "allow", "Protocol": 6, "CidrBlock": "0.0.0.0/0", "PortRange": {"From": 443, "To": 443}}},
		"WorldDenyAll": {"attributes": {"RuleAction": "deny", "Protocol": -1, "CidrBlock": "0.0.0.0/0"}},
		"WorldOutbound": {"attributes": {"Egress": true, "RuleAction": "allow", "Protocol": -1, "CidrBlock": "0.0.0.0/0"}},
		"WorldAll": {"attributes": {"RuleAction": "allow", "Protocol": "-1", "Ipv6CidrBlock": "::/0"}},
		"WorldRange": {"attributes": {"RuleAction": "allow", "Protocol": "6", "CidrBlock": "0.0.0.0/0", "PortRange": {"From": "1024", "To": "3389"}}},
	}},
}

test_open_admin_ports_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["WorldAll", "port[22]"], ["WorldAll", "port[3389]"], ["WorldRange", "port[3389]"]}
	count(rule.resources) == 6 with input as state
}
