# Azure resources configured by separate resources: storage account network
# rules, SQL server auditing and threat-detection policies.
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
