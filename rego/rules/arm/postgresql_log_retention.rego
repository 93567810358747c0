# PostgreSQL servers keep logs for more than three days.
package rules.arm_postgresql_log_retention

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-024",
	"title": "PostgreSQL servers keep logs for more than 3 days",
	"description": "Server logs kept three days or fewer are often gone before anyone investigates; log_retention_days sets how long the service keeps them.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Databases",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_4.3.7"],
	"remediation": {"arm": "Set properties.value of the log_retention_days configuration to a number from 4 to 7."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-server-logs", "https://learn.microsoft.com/en-us/azure/templates/microsoft.dbforpostgresql/servers/configurations"],
}

retention_settings contains r if {
	some r in snyk.resources("Microsoft.DBforPostgreSQL/servers/configurations")
	endswith(lower(r._id), "/log_retention_days")
}

deny contains info if {
	some r in retention_settings
	to_number(r.properties.value) <= 3
	info := {"resource": r, "message": sprintf("log_retention_days is %v.", [r.properties.value]), "attributes": [["properties", "value"]]}
}

resources contains {"resource": r} if some r in retention_settings
