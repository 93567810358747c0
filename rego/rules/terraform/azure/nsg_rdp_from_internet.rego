# Network security groups do not allow RDP from the internet.
package rules.tf_azure_nsg_rdp_from_internet

import data.shipped_lib.azure
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-006",
	"title": "Network security groups do not allow RDP from the internet",
	"description": "An inbound Allow rule from any source (*, 0.0.0.0/0, Internet) to port 3389 exposes RDP to password guessing and exploits from anywhere. The rule reads security_rule blocks of azurerm_network_security_group and azurerm_network_security_rule resources.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Virtual Network",
	"severity": "high",
	"aliases": ["CKV_AZURE_9"],
	"controls": ["CIS-Azure_v1.3.0_6.1"],
	"remediation": {"terraform": "Limit source_address_prefix of the rule to the addresses that need RDP, or reach the machines through Azure Bastion or a VPN instead."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-network/network-security-groups-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_security_rule"],
}

port := 3389

deny contains info if {
	some group in snyk.resources("azurerm_network_security_group")
	some i, rule in object.get(group, "security_rule", [])
	azure.open_to_world(rule, port)
	info := {
		"resource": group,
		"result_tag": sprintf("security_rule[%v]", [object.get(rule, "name", i)]),
		"message": sprintf("Rule %v allows port %d from anywhere.", [object.get(rule, "name", i), port]),
		"attributes": [["security_rule", i]],
	}
}

deny contains info if {
	some rule in snyk.resources("azurerm_network_security_rule")
	azure.open_to_world(rule, port)
	info := {"resource": rule, "message": sprintf("The rule allows port %d from anywhere.", [port])}
}

resources contains {"resource": r} if {
	some type in ["azurerm_network_security_group", "azurerm_network_security_rule"]
	some r in snyk.resources(type)
}
