# Database firewall rules do not admit every address.
package rules.arm_sql_firewall_any

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-007",
	"title": "Database firewall rules do not allow ingress from any address",
	"description": "A server-level firewall rule from 0.0.0.0 to 255.255.255.255 lets every address on the internet reach the database's login endpoint. The rule covers SQL, PostgreSQL, MySQL and MariaDB server firewall rules.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "SQL",
	"severity": "high",
	"aliases": ["CKV_AZURE_11"],
	"controls": ["CIS-Azure_v1.3.0_6.3"],
	"remediation": {"arm": "Narrow startIpAddress and endIpAddress to the client addresses, or use private endpoints."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/firewall-configure", "https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/firewallrules"],
}

types := [
	"Microsoft.Sql/servers/firewallRules",
	"Microsoft.DBforPostgreSQL/servers/firewallRules",
	"Microsoft.DBforMySQL/servers/firewallRules",
	"Microsoft.DBforMariaDB/servers/firewallRules",
]

deny contains info if {
	some type in types
	some rule in snyk.resources(type)
	rule.properties.startIpAddress == "0.0.0.0"
	rule.properties.endIpAddress == "255.255.255.255"
	info := {"resource": rule, "message": "The rule admits every IPv4 address.", "attributes": [["properties", "startIpAddress"], ["properties", "endIpAddress"]]}
}

resources contains {"resource": rule} if {
	some type in types
	some rule in snyk.resources(type)
}
