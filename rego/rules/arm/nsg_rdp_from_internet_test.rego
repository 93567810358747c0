package rules.arm_nsg_rdp_from_internet_test

import data.rules.arm_nsg_rdp_from_internet as rule
import rego.v1

open := {"name": "open", "properties": {"direction": "Inbound", "access": "Allow", "protocol": "Tcp", "sourceAddressPrefix": "*", "destinationPortRange": "3389"}}

state := {"input_type": "arm", "resources": {
	"Microsoft.Network/networkSecurityGroups": {
		"bad": {"attributes": {"properties": {"securityRules": [open]}}},
		"good": {"attributes": {"properties": {"securityRules": [{"name": "in", "properties": object.union(open.properties, {"sourceAddressPrefix": "10.0.0.0/8"})}]}}},
	},
	"Microsoft.Network/networkSecurityGroups/securityRules": {"child": {"attributes": {"properties": object.union(open.properties, {"sourceAddressPrefix": "Internet"})}}},
}}

test_open_rules_fail if {
	{i.resource._id | some i in rule.deny} == {"bad", "child"} with input as state
}
