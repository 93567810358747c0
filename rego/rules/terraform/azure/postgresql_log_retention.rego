# PostgreSQL servers keep their logs more than 3 days.
package rules.tf_azure_postgresql_log_retention

import rego.v1

resource_type := "azurerm_postgresql_configuration"

input_type := "tf"

metadata := {
	"id": "RE-AZ-042",
	"title": "PostgreSQL servers keep logs for more than 3 days",
	"description": "log_retention_days of 3 or less deletes server logs before most incidents are noticed.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Databases",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_4.3.7"],
	"remediation": {"terraform": "Set value to 4 or more (up to 7) in the log_retention_days azurerm_postgresql_configuration."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-server-logs", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_configuration"],
}

deny contains info if {
	lower(input.name) == "log_retention_days"
	to_number(input.value) <= 3
	info := {"message": sprintf("log_retention_days is %v.", [input.value]), "attributes": [["value"]]}
}
