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
		"azurerm_storage_account_customer_managed_key": {"azurerm_storage_account_customer_managed_key.data": {"attributes": {"storage_account_id": "azurerm_storage_account.data", "key_vault_key_id": "azurerm_key_vault_key.storage"}}},
		"azurerm_mssql_server_transparent_data_encryption": {"azurerm_mssql_server_transparent_data_encryption.db": {"attributes": {"server_id": "azurerm_mssql_server.db", "key_vault_key_id": "azurerm_key_vault_key.tde"}}},
		"azurerm_sql_active_directory_administrator": {"azurerm_sql_active_directory_administrator.old": {"attributes": {"server_name": "acme-old", "login": "dba"}}},
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

test_sql_server_entra_administrator if {
	related_ids("azurerm_sql_server", "azurerm_sql_server.old", "azurerm_mssql_server.active_directory_administrator") == ["azurerm_sql_active_directory_administrator.old"] with input as state
	related_ids("azurerm_mssql_server", "azurerm_mssql_server.db", "azurerm_mssql_server.active_directory_administrator") == [] with input as state
}

test_storage_customer_managed_key if {
	related_ids("azurerm_storage_account", "azurerm_storage_account.data", "azurerm_storage_account.customer_managed_key") == ["azurerm_storage_account_customer_managed_key.data"] with input as state
	related_ids("azurerm_storage_account", "azurerm_storage_account.logs", "azurerm_storage_account.customer_managed_key") == [] with input as state
}

test_sql_server_tde_protector if {
	related_ids("azurerm_mssql_server", "azurerm_mssql_server.db", "azurerm_mssql_server.transparent_data_encryption") == ["azurerm_mssql_server_transparent_data_encryption.db"] with input as state
}
