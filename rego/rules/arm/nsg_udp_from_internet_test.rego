package rules.arm_nsg_udp_from_internet_test

import data.rules.arm_nsg_udp_from_internet as rule
import rego.v1

allow(protocol, source) := {"direction": "Inbound", "access": "Allow", "protocol": protocol, "sourceAddressPrefix": source, "destinationPortRange": "53"}

state := {
	"input_type": "arm",
	"resources": {
		"Microsoft.Network/networkSecurityGroups": {"Microsoft.Network/networkSecurityGroups/edge": {"attributes": {"properties": {"securityRules": [
			{"name": "dns-office", "properties": allow("Udp", "203.0.113.0/24")},
			{"name": "dns-world", "properties": allow("Udp", "Internet")},
			{"name": "https-world", "properties": allow("Tcp", "*")},
		]}}}},
		"Microsoft.Network/networkSecurityGroups/securityRules": {"Microsoft.Network/networkSecurityGroups/edge/securityRules/any": {"attributes": {"properties": allow("*", "0.0.0.0/0")}}},
	},
}

test_udp_from_anywhere_fails if {
	failures := {[i.resource._id, object.get(i, "result_tag", "")] | some i in rule.deny} with input as state
	failures == {
		["Microsoft.Network/networkSecurityGroups/edge", "securityRules[dns-world]"],
		["Microsoft.Network/networkSecurityGroups/edge/securityRules/any", ""],
	}
	count(rule.resources) == 2 with input as state
}
