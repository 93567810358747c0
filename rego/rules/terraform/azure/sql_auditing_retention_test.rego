package rules.tf_azure_sql_auditing_retention_test

import data.rules.tf_azure_sql_auditing_retention as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_mssql_server": {
		"azurerm_mssql_server.inline": {"attributes": {"extended_auditing_policy": [{"retention_in_days": 30}]}},
		"azurerm_mssql_server.forever": {"attributes": {}},
		"azurerm_mssql_server.short": {"attributes": {}},
		"azurerm_mssql_server.none": {"attributes": {}},
	},
	"azurerm_mssql_server_extended_auditing_policy": {
		"azurerm_mssql_server_extended_auditing_policy.forever": {"attributes": {"server_id": "azurerm_mssql_server.forever", "retention_in_days": 0}},
		"azurerm_mssql_server_extended_auditing_policy.short": {"attributes": {"server_id": "azurerm_mssql_server.short", "retention_in_days": 90}},
	},
}}

test_short_or_missing_retention_fails if {
	{i.resource._id | some i in rule.deny} == {
		"azurerm_mssql_server.inline",
		"azurerm_mssql_server_extended_auditing_policy.short",
		"azurerm_mssql_server.none",
	} with input as state
}
