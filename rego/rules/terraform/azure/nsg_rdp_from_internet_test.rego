package rules.tf_azure_nsg_rdp_from_internet_test

import data.rules.tf_azure_nsg_rdp_from_internet as rule
import rego.v1

open := {"name": "open", "direction": "Inbound", "access": "Allow", "protocol": "Tcp", "source_address_prefix": "*", "destination_port_range": "3387-3391"}

closed := object.union(open, {"source_address_prefix": "10.0.0.0/8"})

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_network_security_group": {
		"azurerm_network_security_group.bad": {"attributes": {"security_rule": [closed, open]}},
		"azurerm_network_security_group.good": {"attributes": {"security_rule": [closed]}},
	},
	"azurerm_network_security_rule": {
		"azurerm_network_security_rule.bad": {"attributes": object.union(open, {"source_address_prefix": "Internet", "destination_port_range": "3389"})},
		"azurerm_network_security_rule.udp": {"attributes": object.union(open, {"protocol": "Udp"})},
	},
}}

test_open_rules_fail if {
	{[i.resource._id, object.get(i, "result_tag", "")] | some i in rule.deny} == {
		["azurerm_network_security_group.bad", "security_rule[open]"],
		["azurerm_network_security_rule.bad", ""],
	} with input as state
}
