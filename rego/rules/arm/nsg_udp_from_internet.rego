# Network security groups do not allow UDP from the internet: one result per
# rule.
package rules.arm_nsg_udp_from_internet

import data.shipped_lib.azure
import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-037",
	"title": "Network security groups do not allow UDP from the internet",
	"description": "Services answering UDP from anywhere (DNS, NTP, SSDP, memcached and the like) can be abused to amplify denial-of-service attacks against others, as well as exposing the service itself.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Network",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_6.6"],
	"remediation": {"arm": "Narrow sourceAddressPrefix(es) of the inbound Allow rule to known addresses, or set its protocol to Tcp; put public UDP services behind a load balancer or DDoS protection."},
	"references": ["https://learn.microsoft.com/en-us/azure/virtual-network/network-security-groups-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.network/networksecuritygroups"],
}

rule_type := "Microsoft.Network/networkSecurityGroups/securityRules"

udp_from_world(properties) if {
	rule := azure.arm_rule(properties)
	lower(rule.direction) == "inbound"
	lower(rule.access) == "allow"
	lower(rule.protocol) in {"*", "udp"}
	some source in azure.sources(rule)
	lower(source) in azure.world_sources
}

deny contains info if {
	some group in snyk.resources("Microsoft.Network/networkSecurityGroups")
	some i, rule in object.get(group, ["properties", "securityRules"], [])
	udp_from_world(object.get(rule, "properties", {}))
	info := {
		"resource": group,
		"result_tag": sprintf("securityRules[%v]", [object.get(rule, "name", i)]),
		"message": sprintf("Rule %v allows UDP from anywhere.", [object.get(rule, "name", i)]),
		"attributes": [["properties", "securityRules", i]],
	}
}

deny contains info if {
	some rule in snyk.resources(rule_type)
	udp_from_world(object.get(rule, "properties", {}))
	info := {"resource": rule, "message": "The rule allows UDP from anywhere."}
}

resources contains {"resource": r} if {
	some type in ["Microsoft.Network/networkSecurityGroups", rule_type]
	some r in snyk.resources(type)
}
