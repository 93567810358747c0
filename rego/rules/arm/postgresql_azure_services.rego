# PostgreSQL firewalls do not admit every Azure service.
package rules.arm_postgresql_azure_services

import rego.v1

resource_type := "Microsoft.DBforPostgreSQL/servers/firewallRules"

input_type := "arm"

metadata := {
	"id": "RE-ARM-022",
	"title": "PostgreSQL firewalls do not allow access from all Azure services",
	"description": "A firewall rule from 0.0.0.0 to 0.0.0.0 is the \"allow access to Azure services\" switch: it admits connections from any Azure resource, including other customers' subscriptions.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "PostgreSQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.3.8"],
	"remediation": {"arm": "Remove the 0.0.0.0–0.0.0.0 firewall rule; admit the specific addresses, or use private endpoints or virtual network rules."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-firewall-rules", "https://learn.microsoft.com/en-us/azure/templates/microsoft.dbforpostgresql/servers/firewallrules"],
}

deny contains info if {
	input.properties.startIpAddress == "0.0.0.0"
	input.properties.endIpAddress == "0.0.0.0"
	info := {"message": "The rule admits every Azure service.", "attributes": [["properties", "startIpAddress"], ["properties", "endIpAddress"]]}
}
