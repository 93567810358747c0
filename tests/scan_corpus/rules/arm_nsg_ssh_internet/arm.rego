# Multi-resource rule, Rego v0, ARM input; uses the deprecated re_match,
# which only v0 files may call. One result per security rule (result_tag).
package rules.arm_nsg_ssh_internet

import data.snyk

resource_type := "MULTIPLE"

input_type := "arm"

__rego__metadoc__ := {
	"id": "SNYK-CC-AZURE-NSG-1",
	"title": "Network security group allows SSH from the internet",
	"description": "Inbound rules allowing port 22 from * or Internet expose virtual machines to brute-force attacks.",
	"custom": {
		"severity": "High",
		"controls": {"CIS-Azure_v1.3.0": ["CIS-Azure_v1.3.0_6.2"]},
	},
}

internet_sources := {"*", "Internet", "0.0.0.0/0", "Any"}

nsgs := snyk.resources("Microsoft.Network/networkSecurityGroups")

port_in_range(range, _) {
	range == "*"
}

port_in_range(range, port) {
	re_match(`^[0-9]+$`, range)
	to_number(range) == port
}

port_in_range(range, port) {
	re_match(`^[0-9]+-[0-9]+$`, range)
	bounds := split(range, "-")
	to_number(bounds[0]) <= port
	to_number(bounds[1]) >= port
}

deny[info] {
	nsg := nsgs[_]
	rule := nsg.properties.securityRules[i]
	p := rule.properties
	p.direction == "Inbound"
	p.access == "Allow"
	internet_sources[p.sourceAddressPrefix]
	port_in_range(p.destinationPortRange, 22)
	info := {
		"resource": nsg,
		"result_tag": rule.name,
		"message": sprintf("NSG %s rule %s allows SSH from %s", [nsg.name, rule.name, p.sourceAddressPrefix]),
		"attributes": [
			["properties", "securityRules", i, "properties", "sourceAddressPrefix"],
			["properties", "securityRules", i, "properties", "destinationPortRange"],
		],
	}
}

resources[info] {
	nsg := nsgs[_]
	rule := nsg.properties.securityRules[_]
	info := {"resource": nsg, "result_tag": rule.name}
}
