# Network security groups do not allow UDP from the internet.
package rules.tf_azure_nsg_udp_from_internet

import data.shipped_lib.azure
import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-044",
	"title": "Network security groups do not allow UDP from the internet",
	"description": "UDP services open to the internet (DNS, NTP, SSDP, memcached and the like) are abused for reflection and amplification attacks. The rule reads security_rule blocks of azurerm_network_security_group and azurerm_network_security_rule resources.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Virtual Network",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_6.6"],
	"remediation": {"terraform": "Limit source_address_prefix of inbound UDP rules to the addresses that need them."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-network/network-security-groups-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_security_rule"],
}

udp_from_world(rule) if {
	lower(object.get(rule, "direction", "")) == "inbound"
	lower(object.get(rule, "access", "")) == "allow"
	lower(object.get(rule, "protocol", "*")) in {"*", "udp"}
	some source in azure.sources(rule)
	lower(source) in azure.world_sources
}

deny contains info if {
	some group in snyk.resources("azurerm_network_security_group")
	some i, rule in object.get(group, "security_rule", [])
	udp_from_world(rule)
	info := {
		"resource": group,
		"result_tag": sprintf("security_rule[%v]", [object.get(rule, "name", i)]),
		"message": sprintf("Rule %v allows UDP from anywhere.", [object.get(rule, "name", i)]),
		"attributes": [["security_rule", i]],
	}
}

deny contains info if {
	some rule in snyk.resources("azurerm_network_security_rule")
	udp_from_world(rule)
	info := {"resource": rule, "message": "The rule allows UDP from anywhere."}
}

resources contains {"resource": r} if {
	some type in ["azurerm_network_security_group", "azurerm_network_security_rule"]
	some r in snyk.resources(type)
}
