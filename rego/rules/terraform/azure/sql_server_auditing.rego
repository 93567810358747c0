# SQL servers have auditing configured.
package rules.tf_azure_sql_server_auditing

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-009",
	"title": "SQL servers have auditing enabled",
	"description": "Server auditing records database events to a storage account, Log Analytics or Event Hubs; without it, access to the data leaves no record. The rule accepts an inline extended_auditing_policy block or an azurerm_mssql_server_extended_auditing_policy resource for the server.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "SQL",
	"severity": "medium",
	"aliases": ["CKV_AZURE_23"],
	"controls": ["CIS-Azure_v1.3.0_4.1.1"],
	"remediation": {"terraform": "Add an azurerm_mssql_server_extended_auditing_policy with server_id set to the server's id (or an extended_auditing_policy block in provider v2)."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/auditing-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_extended_auditing_policy"],
}

relation := "azurerm_mssql_server.extended_auditing_policy"

types := ["azurerm_mssql_server", "azurerm_sql_server"]

audited(server) if count(object.get(server, "extended_auditing_policy", [])) > 0

audited(server) if {
	some policy in snyk.relates(server, relation)
	object.get(policy, "enabled", true) != false
}

deny contains info if {
	some type in types
	some server in snyk.resources(type)
	not audited(server)
	info := {"resource": server, "message": "The server has no auditing policy."}
}

resources contains {"resource": server} if {
	some type in types
	some server in snyk.resources(type)
}
