package relations_test.azure

import data.snyk
import rego.v1

state := {
	"input_type": "tf_hcl",
	"resources": {
		"azurerm_storage_account": {
			"azurerm_storage_account.logs": {"attributes": {"name": "acmelogs"}},
			"azurerm_storage_account.data": {"attributes": {"name": "acmedata"}},
		},
		"azurerm_storage_account_network_rules": {
			"azurerm_storage_account_network_rules.logs": {"attributes": {"storage_account_id": "azurerm_storage_account.logs"}},
			"azurerm_storage_account_network_rules.data": {"attributes": {"storage_account_name": "acmedata"}},
		},
		"azurerm_mssql_server": {"azurerm_mssql_server.db": {"attributes": {"name": "acme-db"}}},
		"azurerm_sql_server": {"azurerm_sql_server.old": {"attributes": {"name": "acme-old"}}},
		"azurerm_mssql_server_extended_auditing_policy": {"azurerm_mssql_server_extended_auditing_policy.db": {"attributes": {"server_id": "azurerm_mssql_server.db"}}},
		"azurerm_mssql_server_security_alert_policy": {"azurerm_mssql_server_security_alert_policy.old": {"attributes": {"server_name": "acme-old"}}},
	},
}

resource(type, id) := r if {
	some r in snyk.resources(type)
	r._id == id
}

related_ids(type, id, relation) := [r._id | some r in snyk.relates(resource(type, id), relation)]

test_storage_network_rules_by_id_and_name if {
	related_ids("azurerm_storage_account", "azurerm_storage_account.logs", "azurerm_storage_account.network_rules") == ["azurerm_storage_account_network_rules.logs"] with input as state
	related_ids("azurerm_storage_account", "azurerm_storage_account.data", "azurerm_storage_account.network_rules") == ["azurerm_storage_account_network_rules.data"] with input as state
}

test_sql_server_policies if {
	related_ids("azurerm_mssql_server", "azurerm_mssql_server.db", "azurerm_mssql_server.extended_auditing_policy") == ["azurerm_mssql_server_extended_auditing_policy.db"] with input as state
	related_ids("azurerm_mssql_server", "azurerm_mssql_server.db", "azurerm_mssql_server.security_alert_policy") == [] with input as state
	related_ids("azurerm_sql_server", "azurerm_sql_server.old", "azurerm_mssql_server.security_alert_policy") == ["azurerm_mssql_server_security_alert_policy.old"] with input as state
}
