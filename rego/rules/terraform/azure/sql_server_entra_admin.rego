# SQL servers have a Microsoft Entra ID administrator.
package rules.tf_azure_sql_server_entra_admin

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-046",
	"title": "SQL servers have a Microsoft Entra ID administrator",
	"description": "With an Entra ID administrator, database access can use Entra identities (with their MFA, conditional access and central revocation) instead of SQL logins alone. The rule reads the server's azuread_administrator block and azurerm_sql_active_directory_administrator resources naming the server.",
	"platform": ["Azure"],
	"category": "Identity and access",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.4"],
	"remediation": {"terraform": "Add azuread_administrator { login_username = ..., object_id = ... } to the azurerm_mssql_server (or an azurerm_sql_active_directory_administrator for the server)."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/azure-sql/database/authentication-aad-configure",
		"https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server#azuread_administrator",
	],
}

server_types := ["azurerm_mssql_server", "azurerm_sql_server"]

relation := "azurerm_mssql_server.active_directory_administrator"

has_admin(server) if count(object.get(server, "azuread_administrator", [])) > 0

has_admin(server) if count(snyk.relates(server, relation)) > 0

deny contains info if {
	some type in server_types
	some server in snyk.resources(type)
	not has_admin(server)
	info := {"resource": server, "message": "The server has no Entra ID administrator."}
}

resources contains {"resource": server} if {
	some type in server_types
	some server in snyk.resources(type)
}

resources contains {"primary_resource": server, "resource": admin} if {
	some type in server_types
	some server in snyk.resources(type)
	some admin in snyk.relates(server, relation)
}
