# PostgreSQL servers do not admit all Azure services.
package rules.tf_azure_postgresql_azure_services

import rego.v1

resource_type := "azurerm_postgresql_firewall_rule"

input_type := "tf"

metadata := {
	"id": "RE-AZ-043",
	"title": "PostgreSQL firewalls do not allow access from all Azure services",
	"description": "A firewall rule from 0.0.0.0 to 0.0.0.0 admits connections from any Azure service, including other customers' resources.",
	"platform": ["Azure"],
	"category": "Network security",
	"service_group": "Databases",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.3.8"],
	"remediation": {"terraform": "Remove the 0.0.0.0 to 0.0.0.0 firewall rule; use virtual network rules or private endpoints for the services that need access."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-firewall-rules", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_firewall_rule"],
}

deny contains info if {
	input.start_ip_address == "0.0.0.0"
	input.end_ip_address == "0.0.0.0"
	info := {"message": "The rule admits every Azure service.", "attributes": [["start_ip_address"], ["end_ip_address"]]}
}
