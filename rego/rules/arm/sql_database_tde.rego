# SQL databases keep transparent data encryption on.
package rules.arm_sql_database_tde

import rego.v1

resource_type := "Microsoft.Sql/servers/databases/transparentDataEncryption"

input_type := "arm"

metadata := {
	"id": "RE-ARM-029",
	"title": "SQL databases keep transparent data encryption on",
	"description": "Transparent data encryption encrypts a database, its backups and its logs at rest. It is on by default for new databases; the rule fails transparentDataEncryption resources that turn it off.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.1.2"],
	"remediation": {"arm": "Set properties.state (status in older API versions) to Enabled, or remove the resource to keep the default."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/transparent-data-encryption-tde-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/databases/transparentdataencryption"],
}

deny contains info if {
	some key in ["state", "status"]
	input.properties[key] == "Disabled"
	info := {"message": sprintf("properties.%s is Disabled.", [key]), "attributes": [["properties", key]]}
}
