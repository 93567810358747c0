package rules.tf_azure_sql_server_auditing_test

import data.rules.tf_azure_sql_server_auditing as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_mssql_server": {
		"azurerm_mssql_server.audited": {"attributes": {"name": "a"}},
		"azurerm_mssql_server.inline": {"attributes": {"name": "b", "extended_auditing_policy": [{"retention_in_days": 90}]}},
		"azurerm_mssql_server.plain": {"attributes": {"name": "c"}},
	},
	"azurerm_sql_server": {"azurerm_sql_server.old": {"attributes": {"name": "d"}}},
	"azurerm_mssql_server_extended_auditing_policy": {"azurerm_mssql_server_extended_auditing_policy.a": {"attributes": {"server_id": "azurerm_mssql_server.audited"}}},
}}

test_servers_without_auditing_fail if {
	{i.resource._id | some i in rule.deny} == {"azurerm_mssql_server.plain", "azurerm_sql_server.old"} with input as state
}
