# Azure resources configured by separate resources: storage account network
# rules and customer-managed keys, SQL server auditing and threat-detection
# policies, Entra ID administrators and TDE protectors.
package relations

import data.snyk
import rego.v1

relations contains snyk.relation_from_fields(
	"azurerm_storage_account.network_rules",
	{"azurerm_storage_account": ["id", "name"]},
	{"azurerm_storage_account_network_rules": ["storage_account_id", "storage_account_name"]},
)

relations contains snyk.relation_from_fields(
	"azurerm_mssql_server.extended_auditing_policy",
	{"azurerm_mssql_server": ["id"], "azurerm_sql_server": ["id"]},
	{"azurerm_mssql_server_extended_auditing_policy": ["server_id"]},
)

relations contains snyk.relation_from_fields(
	"azurerm_mssql_server.security_alert_policy",
	{"azurerm_mssql_server": ["name"], "azurerm_sql_server": ["name"]},
	{"azurerm_mssql_server_security_alert_policy": ["server_name"]},
)

relations contains snyk.relation_from_fields(
	"azurerm_mssql_server.active_directory_administrator",
	{"azurerm_mssql_server": ["id", "name"], "azurerm_sql_server": ["id", "name"]},
	{"azurerm_sql_active_directory_administrator": ["server_name"]},
)

relations contains snyk.relation_from_fields(
	"azurerm_storage_account.customer_managed_key",
	{"azurerm_storage_account": ["id"]},
	{"azurerm_storage_account_customer_managed_key": ["storage_account_id"]},
)

relations contains snyk.relation_from_fields(
	"azurerm_mssql_server.transparent_data_encryption",
	{"azurerm_mssql_server": ["id"]},
	{"azurerm_mssql_server_transparent_data_encryption": ["server_id"]},
)
