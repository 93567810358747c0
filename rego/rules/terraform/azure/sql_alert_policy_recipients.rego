# SQL security alert policies name e-mail recipients.
package rules.tf_azure_sql_alert_policy_recipients

import rego.v1

resource_type := "azurerm_mssql_server_security_alert_policy"

input_type := "tf"

metadata := {
	"id": "RE-AZ-012",
	"title": "SQL security alert policies name e-mail recipients",
	"description": "Threat detection alerts are only useful when someone receives them: email_addresses should list the people or the distribution list that responds to them.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "low",
	"aliases": ["CKV_AZURE_26"],
	"remediation": {"terraform": "Set email_addresses to the addresses that handle security alerts."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-configure", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_security_alert_policy"],
}

deny contains info if {
	count([a | some a in object.get(input, "email_addresses", []); a != ""]) == 0
	info := {"message": "The policy sends alerts to no e-mail address."}
}
