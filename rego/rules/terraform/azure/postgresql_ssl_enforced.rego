# PostgreSQL servers enforce SSL connections.
package rules.tf_azure_postgresql_ssl_enforced

import rego.v1

resource_type := "azurerm_postgresql_server"

input_type := "tf"

metadata := {
	"id": "RE-AZ-014",
	"title": "PostgreSQL servers enforce SSL connections",
	"description": "With SSL enforcement off, an Azure Database for PostgreSQL server accepts unencrypted client connections, exposing credentials and data on the network.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Databases",
	"severity": "high",
	"aliases": ["CKV_AZURE_29"],
	"controls": ["CIS-Azure_v1.3.0_4.3.1"],
	"remediation": {"terraform": "Set ssl_enforcement_enabled = true on the server."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-ssl-connection-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_server"],
}

deny contains info if {
	input.ssl_enforcement_enabled == false
	info := {"message": "ssl_enforcement_enabled is false.", "attributes": [["ssl_enforcement_enabled"]]}
}

deny contains info if {
	lower(input.ssl_enforcement) == "disabled"
	info := {"message": "ssl_enforcement is Disabled.", "attributes": [["ssl_enforcement"]]}
}
