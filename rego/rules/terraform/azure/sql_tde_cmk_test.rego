package rules.tf_azure_sql_tde_cmk_test

import data.rules.tf_azure_sql_tde_cmk as rule
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_mssql_server": {
			"azurerm_mssql_server.inline": {"attributes": {"transparent_data_encryption_key_vault_key_id": "azurerm_key_vault_key.tde"}},
			"azurerm_mssql_server.separate": {"attributes": {"name": "separate"}},
			"azurerm_mssql_server.service": {"attributes": {"name": "service"}},
		},
		"azurerm_mssql_server_transparent_data_encryption": {
			"azurerm_mssql_server_transparent_data_encryption.separate": {"attributes": {"server_id": "azurerm_mssql_server.separate", "key_vault_key_id": "azurerm_key_vault_key.tde"}},
			"azurerm_mssql_server_transparent_data_encryption.service": {"attributes": {"server_id": "azurerm_mssql_server.service"}},
		},
	},
}

test_service_managed_protectors_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"azurerm_mssql_server.service"}
	count(rule.resources) == 5 with input as state
}
