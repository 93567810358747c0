# SQL auditing keeps records for more than 90 days.
package rules.tf_azure_sql_auditing_retention

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-041",
	"title": "SQL server auditing keeps records for more than 90 days",
	"description": "Audit records are needed long after an event to reconstruct it; a retention of 90 days or less deletes them too early (0 keeps them without limit), and a server without any auditing policy keeps none. The rule reads inline extended_auditing_policy blocks and azurerm_mssql_server_extended_auditing_policy resources for the server.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "SQL",
	"severity": "low",
	"aliases": ["CKV_AZURE_24"],
	"controls": ["CIS-Azure_v1.3.0_4.1.3"],
	"remediation": {"terraform": "Give the server an auditing policy with retention_in_days above 90 (or 0 for no limit)."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/auditing-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_extended_auditing_policy#retention_in_days"],
}

relation := "azurerm_mssql_server.extended_auditing_policy"

types := ["azurerm_mssql_server", "azurerm_sql_server"]

short(policy) if {
	days := object.get(policy, "retention_in_days", 0)
	days > 0
	days <= 90
}

policies(server) := array.concat(object.get(server, "extended_auditing_policy", []), snyk.relates(server, relation))

deny contains info if {
	some type in types
	some server in snyk.resources(type)
	count(policies(server)) == 0
	info := {"resource": server, "message": "The server has no auditing policy, so it keeps no audit records."}
}

deny contains info if {
	some type in types
	some server in snyk.resources(type)
	some i, policy in object.get(server, "extended_auditing_policy", [])
	short(policy)
	info := {"resource": server, "message": sprintf("Audit records are kept %v days.", [policy.retention_in_days]), "attributes": [["extended_auditing_policy", i, "retention_in_days"]]}
}

deny contains info if {
	some type in types
	some server in snyk.resources(type)
	some policy in snyk.relates(server, relation)
	short(policy)
	info := {"primary_resource": server, "resource": policy, "message": sprintf("Audit records are kept %v days.", [policy.retention_in_days]), "attributes": [["retention_in_days"]]}
}

resources contains {"resource": server} if {
	some type in types
	some server in snyk.resources(type)
}
