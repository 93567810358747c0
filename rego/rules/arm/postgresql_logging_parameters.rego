# PostgreSQL servers keep their logging and throttling parameters on: one
# result per configuration resource.
package rules.arm_postgresql_logging_parameters

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-023",
	"title": "PostgreSQL servers keep logging and connection throttling on",
	"description": "log_checkpoints, log_connections and log_disconnections record what an investigation needs; connection_throttling slows password guessing. They are on by default; the rule fails Microsoft.DBforPostgreSQL/servers/configurations resources that turn one off.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Databases",
	"severity": "low",
	"aliases": ["CKV_AZURE_30", "CKV_AZURE_31", "CKV_AZURE_32"],
	"controls": ["CIS-Azure_v1.3.0_4.3.3", "CIS-Azure_v1.3.0_4.3.4", "CIS-Azure_v1.3.0_4.3.5", "CIS-Azure_v1.3.0_4.3.6"],
	"remediation": {"arm": "Set properties.value to \"on\" in the configuration resource (or remove it to keep the default)."},
	"references": ["https://learn.microsoft.com/en-us/azure/postgresql/single-server/concepts-server-logs", "https://learn.microsoft.com/en-us/azure/templates/microsoft.dbforpostgresql/servers/configurations"],
}

parameters := {"log_checkpoints", "log_connections", "log_disconnections", "connection_throttling"}

# A child resource's own name: the last segment of its id.
parameter_name(r) := lower(regex.replace(r._id, `^.*/`, ""))

deny contains info if {
	some r in snyk.resources("Microsoft.DBforPostgreSQL/servers/configurations")
	name := parameter_name(r)
	name in parameters
	lower(sprintf("%v", [object.get(r, ["properties", "value"], "on")])) in {"off", "false", "0"}
	info := {"resource": r, "message": sprintf("%s is off.", [name]), "attributes": [["properties", "value"]]}
}

resources contains {"resource": r} if {
	some r in snyk.resources("Microsoft.DBforPostgreSQL/servers/configurations")
	parameter_name(r) in parameters
}
