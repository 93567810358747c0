# MySQL servers enforce SSL connections.
package rules.arm_mysql_ssl_enforced

import rego.v1

resource_type := "Microsoft.DBforMySQL/servers"

input_type := "arm"

metadata := {
	"id": "RE-ARM-014",
	"title": "MySQL servers enforce SSL connections",
	"description": "With sslEnforcement Disabled the server accepts unencrypted client connections.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "Databases",
	"severity": "high",
	"aliases": ["CKV_AZURE_28"],
	"controls": ["CIS-Azure_v1.3.0_4.3.2"],
	"remediation": {"arm": "Set properties.sslEnforcement to \"Enabled\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/mysql/single-server/concepts-ssl-connection-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.dbformysql/servers"],
}

deny contains info if {
	lower(input.properties.sslEnforcement) == "disabled"
	info := {"message": "sslEnforcement is Disabled.", "attributes": [["properties", "sslEnforcement"]]}
}
