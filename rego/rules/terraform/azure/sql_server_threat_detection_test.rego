package rules.tf_azure_sql_server_threat_detection_test

import data.rules.tf_azure_sql_server_threat_detection as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_mssql_server": {
		"azurerm_mssql_server.on": {"attributes": {"name": "on"}},
		"azurerm_mssql_server.off": {"attributes": {"name": "off"}},
		"azurerm_mssql_server.none": {"attributes": {"name": "none"}},
	},
	"azurerm_mssql_server_security_alert_policy": {
		"azurerm_mssql_server_security_alert_policy.on": {"attributes": {"server_name": "on", "state": "Enabled"}},
		"azurerm_mssql_server_security_alert_policy.off": {"attributes": {"server_name": "off", "state": "Disabled"}},
	},
}}

test_servers_without_enabled_policy_fail if {
	{i.resource._id | some i in rule.deny} == {"azurerm_mssql_server.off", "azurerm_mssql_server.none"} with input as state
}
