# SQL databases keep transparent data encryption on.
package rules.tf_azure_sql_database_tde

import rego.v1

resource_type := "azurerm_mssql_database"

input_type := "tf"

metadata := {
	"id": "RE-AZ-040",
	"title": "SQL databases keep transparent data encryption on",
	"description": "Transparent data encryption encrypts the database, its backups and its log files at rest; it is on by default and should not be turned off.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.1.2"],
	"remediation": {"terraform": "Remove transparent_data_encryption_enabled = false from the azurerm_mssql_database."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/transparent-data-encryption-tde-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_database#transparent_data_encryption_enabled"],
}

deny contains info if {
	input.transparent_data_encryption_enabled == false
	info := {"message": "transparent_data_encryption_enabled is false.", "attributes": [["transparent_data_encryption_enabled"]]}
}
