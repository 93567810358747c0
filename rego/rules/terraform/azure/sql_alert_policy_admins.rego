# SQL security alert policies also alert the subscription administrators.
package rules.tf_azure_sql_alert_policy_admins

import rego.v1

resource_type := "azurerm_mssql_server_security_alert_policy"

input_type := "tf"

metadata := {
	"id": "RE-AZ-013",
	"title": "SQL security alert policies also alert the subscription administrators",
	"description": "email_account_admins sends threat detection alerts to the subscription's service and co-administrators as well, so that alerts reach someone even when the recipient list is stale.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "low",
	"aliases": ["CKV_AZURE_27"],
	"remediation": {"terraform": "Set email_account_admins = true."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-configure", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_security_alert_policy"],
}

deny contains info if {
	object.get(input, "email_account_admins", false) != true
	info := {"message": "email_account_admins is not true.", "attributes": [["email_account_admins"]]}
}
