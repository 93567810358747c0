package rules.tf_azure_sql_server_entra_admin_test

import data.rules.tf_azure_sql_server_entra_admin as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_mssql_server": {
			"azurerm_mssql_server.inline": {"attributes": {"name": "inline", "azuread_administrator": [{"login_username": "dba", "object_id": "00000000-0000-0000-0000-000000000001"}]}},
			"azurerm_mssql_server.none": {"attributes": {"name": "none"}},
		},
		"azurerm_sql_server": {"azurerm_sql_server.legacy": {"attributes": {"name": "legacy"}}},
		"azurerm_sql_active_directory_administrator": {"azurerm_sql_active_directory_administrator.legacy": {"attributes": {"server_name": "azurerm_sql_server.legacy", "login": "dba"}}},
	},
}

test_servers_without_an_administrator_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"azurerm_mssql_server.none"}
	count(rule.resources) == 4 with input as state
}
