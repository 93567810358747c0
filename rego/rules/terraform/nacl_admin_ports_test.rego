package rules.tf_aws_nacl_admin_ports_test

import data.rules.tf_aws_nacl_admin_ports as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"aws_network_acl": {"aws_network_acl.public": {"attributes": {"ingress": [
		{"rule_no": 100, "action": "allow", "protocol": "tcp", "cidr_block": "0.0.0.0/0", "from_port": 443, "to_port": 443},
		{"rule_no": 110, "action": "allow", "protocol": "tcp", "cidr_block": "0.0.0.0/0", "from_port": 22, "to_port": 22},
	]}}},
	"aws_network_acl_rule": {
		"aws_network_acl_rule.all": {"attributes": {"rule_action": "allow", "protocol": "-1", "cidr_block": "0.0.0.0/0", "from_port": 0, "to_port": 0}},
		"aws_network_acl_rule.out": {"attributes": {"egress": true, "rule_action": "allow", "protocol": "-1", "cidr_block": "0.0.0.0/0"}},
	},
}}

test_open_admin_ports_fail if {
	{[i.resource._id, i.result_tag] | some i in rule.deny} == {
		["aws_network_acl.public", "ingress[110].port[22]"],
		["aws_network_acl_rule.all", "port[22]"],
		["aws_network_acl_rule.all", "port[3389]"],
	} with input as state
}
