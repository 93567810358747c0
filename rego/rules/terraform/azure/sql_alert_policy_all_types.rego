# SQL security alert policies leave no alert type disabled.
package rules.tf_azure_sql_alert_policy_all_types

import rego.v1

resource_type := "azurerm_mssql_server_security_alert_policy"

input_type := "tf"

metadata := {
	"id": "RE-AZ-011",
	"title": "SQL security alert policies leave no alert type disabled",
	"description": "disabled_alerts turns off detection types such as Sql_Injection or Access_Anomaly; every type should stay on so that no attack class goes unreported.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "low",
	"aliases": ["CKV_AZURE_25"],
	"remediation": {"terraform": "Remove disabled_alerts (or leave it empty)."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-configure", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_security_alert_policy"],
}

deny contains info if {
	count(object.get(input, "disabled_alerts", [])) > 0
	info := {"message": sprintf("Alert types are disabled: %s.", [concat(", ", [sprintf("%v", [a]) | some a in input.disabled_alerts])]), "attributes": [["disabled_alerts"]]}
}
