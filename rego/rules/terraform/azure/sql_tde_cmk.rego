# SQL servers protect TDE with a customer-managed key.
package rules.tf_azure_sql_tde_cmk

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-050",
	"title": "SQL servers protect TDE with a customer-managed key",
	"description": "Transparent data encryption encrypts databases with a key that a TDE protector wraps, by default a service-managed one. A Key Vault key as protector lets the organisation control its rotation and revoke access to every database of the server. The rule reads the server's transparent_data_encryption_key_vault_key_id and azurerm_mssql_server_transparent_data_encryption resources naming it.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "SQL",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_4.5"],
	"remediation": {"terraform": "Add an azurerm_mssql_server_transparent_data_encryption with server_id and key_vault_key_id (or set transparent_data_encryption_key_vault_key_id on the azurerm_mssql_server)."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/azure-sql/database/transparent-data-encryption-byok-overview",
		"https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_transparent_data_encryption",
	],
}

relation := "azurerm_mssql_server.transparent_data_encryption"

key_set(value) if {
	is_string(value)
	value != ""
}

customer_key(server) if key_set(object.get(server, "transparent_data_encryption_key_vault_key_id", ""))

customer_key(server) if {
	some tde in snyk.relates(server, relation)
	key_set(object.get(tde, "key_vault_key_id", ""))
}

deny contains info if {
	some server in snyk.resources("azurerm_mssql_server")
	not customer_key(server)
	info := {"resource": server, "message": "The server's TDE protector is service-managed."}
}

resources contains {"resource": server} if some server in snyk.resources("azurerm_mssql_server")

resources contains {"primary_resource": server, "resource": tde} if {
	some server in snyk.resources("azurerm_mssql_server")
	some tde in snyk.relates(server, relation)
}
