package rules.tf_azure_nsg_udp_from_internet_test

import data.rules.tf_azure_nsg_udp_from_internet as rule
import rego.v1

udp := {"name": "dns", "direction": "Inbound", "access": "Allow", "protocol": "Udp", "source_address_prefix": "*", "destination_port_range": "53"}

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_network_security_group": {"azurerm_network_security_group.g": {"attributes": {"security_rule": [udp, object.union(udp, {"name": "tcp", "protocol": "Tcp"})]}}},
	"azurerm_network_security_rule": {"azurerm_network_security_rule.inside": {"attributes": object.union(udp, {"source_address_prefix": "10.0.0.0/8"})}},
}}

test_udp_from_anywhere_fails if {
	{[i.resource._id, object.get(i, "result_tag", "")] | some i in rule.deny} == {["azurerm_network_security_group.g", "security_rule[dns]"]} with input as state
}
