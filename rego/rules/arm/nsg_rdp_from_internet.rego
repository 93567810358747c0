# Network security groups do not allow RDP from the internet.
package rules.arm_nsg_rdp_from_internet

import data.shipped_lib.azure
import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-005",
	"title": "Network security groups do not allow RDP from the internet",
	"description": "An inbound Allow rule from any source (*, 0.0.0.0/0, Internet) to port 3389 exposes RDP to password guessing and exploits from anywhere. The rule reads the securityRules of network security groups and securityRules child resources.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Virtual Network",
	"severity": "high",
	"aliases": ["CKV_AZURE_9"],
	"controls": ["CIS-Azure_v1.3.0_6.1"],
	"remediation": {"arm": "Limit sourceAddressPrefix of the rule to the addresses that need RDP, or use Azure Bastion."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-network/network-security-groups-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.network/networksecuritygroups"],
}

port := 3389

rule_type := "Microsoft.Network/networkSecurityGroups/securityRules"

deny contains info if {
	some group in snyk.resources("Microsoft.Network/networkSecurityGroups")
	some i, rule in object.get(group, ["properties", "securityRules"], [])
	azure.open_to_world(azure.arm_rule(object.get(rule, "properties", {})), port)
	info := {
		"resource": group,
		"result_tag": sprintf("securityRules[%v]", [object.get(rule, "name", i)]),
		"message": sprintf("Rule %v allows port %d from anywhere.", [object.get(rule, "name", i), port]),
		"attributes": [["properties", "securityRules", i]],
	}
}

deny contains info if {
	some rule in snyk.resources(rule_type)
	azure.open_to_world(azure.arm_rule(object.get(rule, "properties", {})), port)
	info := {"resource": rule, "message": sprintf("The rule allows port %d from anywhere.", [port])}
}

resources contains {"resource": r} if {
	some type in ["Microsoft.Network/networkSecurityGroups", rule_type]
	some r in snyk.resources(type)
}
