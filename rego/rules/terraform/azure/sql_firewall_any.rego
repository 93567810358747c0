# Database firewall rules do not admit every address.
package rules.tf_azure_sql_firewall_any

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-008",
	"title": "Database firewall rules do not allow ingress from any address",
	"description": "A server-level firewall rule from 0.0.0.0 to 255.255.255.255 lets every address on the internet reach the database's login endpoint. The rule covers SQL, PostgreSQL, MySQL and MariaDB server firewall rules.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "SQL",
	"severity": "high",
	"aliases": ["CKV_AZURE_11"],
	"controls": ["CIS-Azure_v1.3.0_6.3"],
	"remediation": {"terraform": "Narrow start_ip_address and end_ip_address to the addresses of the clients, or use private endpoints or virtual network rules."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/firewall-configure", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_firewall_rule"],
}

types := [
	"azurerm_sql_firewall_rule",
	"azurerm_mssql_firewall_rule",
	"azurerm_postgresql_firewall_rule",
	"azurerm_mysql_firewall_rule",
	"azurerm_mariadb_firewall_rule",
]

deny contains info if {
	some type in types
	some rule in snyk.resources(type)
	rule.start_ip_address == "0.0.0.0"
	rule.end_ip_address == "255.255.255.255"
	info := {"resource": rule, "message": "The rule admits every IPv4 address.", "attributes": [["start_ip_address"], ["end_ip_address"]]}
}

resources contains {"resource": rule} if {
	some type in types
	some rule in snyk.resources(type)
}
