# PostgreSQL servers enforce SSL connections.
package rules.arm_postgresql_ssl_enforced

import rego.v1

resource_type := "Microsoft.DBforPostgreSQL/servers"

input_type := "arm"

metadata := {
	"id": "RE-ARM-013",
	"title": "PostgreSQL servers enforce SSL connections",
	"description": "With sslEnforcement Disabled the server accepts unencrypted client connections.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Databases",
	"severity": "high",
	"aliases": ["CKV_AZURE_29"],
	"controls": ["CIS-Azure_v1.3.0_4.3.1"],
	"remediation": {"arm": "Set properties.sslEnforcement to \"Enabled\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-ssl-connection-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.dbforpostgresql/servers"],
}

deny contains info if {
	lower(input.properties.sslEnforcement) == "disabled"
	info := {"message": "sslEnforcement is Disabled.", "attributes": [["properties", "sslEnforcement"]]}
}
