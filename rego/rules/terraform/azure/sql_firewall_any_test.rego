package rules.tf_azure_sql_firewall_any_test

import data.rules.tf_azure_sql_firewall_any as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"azurerm_sql_firewall_rule": {"azurerm_sql_firewall_rule.one": {"attributes": {"start_ip_address": "10.0.17.62", "end_ip_address": "10.0.17.62"}}},
	"azurerm_mssql_firewall_rule": {"azurerm_mssql_firewall_rule.all": {"attributes": {"start_ip_address": "0.0.0.0", "end_ip_address": "255.255.255.255"}}},
}}

test_any_address_fails if {
	{i.resource._id | some i in rule.deny} == {"azurerm_mssql_firewall_rule.all"} with input as state
	count(rule.resources) == 2 with input as state
}
