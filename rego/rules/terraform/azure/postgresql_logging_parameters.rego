# PostgreSQL servers keep checkpoint, connection logging and throttling on.
package rules.tf_azure_postgresql_logging_parameters

import rego.v1

resource_type := "azurerm_postgresql_configuration"

input_type := "tf"

metadata := {
	"id": "RE-AZ-016",
	"title": "PostgreSQL servers keep logging and connection throttling on",
	"description": "log_checkpoints, log_connections and log_disconnections record activity needed to investigate incidents, and connection_throttling slows down password guessing. A server configuration that sets any of them to off removes that protection.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Databases",
	"severity": "low",
	"aliases": ["CKV_AZURE_30", "CKV_AZURE_31", "CKV_AZURE_32"],
	"controls": ["CIS-Azure_v1.3.0_4.3.3", "CIS-Azure_v1.3.0_4.3.4", "CIS-Azure_v1.3.0_4.3.5", "CIS-Azure_v1.3.0_4.3.6"],
	"remediation": {"terraform": "Set value = \"on\" in the azurerm_postgresql_configuration (or remove it: log_checkpoints, log_connections and connection_throttling default to on)."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-server-logs", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_configuration"],
}

parameters := {"log_checkpoints", "log_connections", "log_disconnections", "connection_throttling"}

deny contains info if {
	lower(input.name) in parameters
	lower(sprintf("%v", [input.value])) in {"off", "false", "0"}
	info := {"message": sprintf("%s is off.", [input.name]), "attributes": [["value"]]}
}
