# SQL servers audit, and keep audit records for more than 90 days: one result
# per server and setting.
package rules.arm_sql_auditing

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-028",
	"title": "SQL servers audit and keep audit records for more than 90 days",
	"description": "Server auditing records database events for every database of the server; records kept 90 days or fewer are often gone before an investigation starts. The rule reads each Microsoft.Sql/servers resource's auditingSettings and extendedAuditingSettings children (retentionDays 0 keeps records forever).",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "SQL",
	"severity": "medium",
	"aliases": ["CKV_AZURE_23", "CKV_AZURE_24"],
	"controls": ["CIS-Azure_v1.3.0_4.1.1", "CIS-Azure_v1.3.0_4.1.3"],
	"remediation": {"arm": "Add a Microsoft.Sql/servers/auditingSettings child named default with properties.state Enabled, a destination (storage, Log Analytics or Event Hubs) and retentionDays above 90 or 0."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/auditing-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/auditingsettings"],
}

setting_types := ["Microsoft.Sql/servers/auditingSettings", "Microsoft.Sql/servers/extendedAuditingSettings"]

# [server, its enabled auditing settings].
enabled_settings(server) := [s |
	some type in setting_types
	some s in snyk.resources(type)
	s._parent_id == server._id
	s.properties.state == "Enabled"
]

short(setting) if {
	days := object.get(setting, ["properties", "retentionDays"], 0)
	days > 0
	days <= 90
}

deny contains info if {
	some server in snyk.resources("Microsoft.Sql/servers")
	count(enabled_settings(server)) == 0
	info := {"resource": server, "result_tag": "auditing", "message": "The server has no enabled auditing settings."}
}

deny contains info if {
	some server in snyk.resources("Microsoft.Sql/servers")
	some setting in enabled_settings(server)
	short(setting)
	info := {
		"primary_resource": server,
		"resource": setting,
		"result_tag": "retention",
		"message": sprintf("Audit records are kept %v days.", [setting.properties.retentionDays]),
		"attributes": [["properties", "retentionDays"]],
	}
}

resources contains {"resource": server, "result_tag": "auditing"} if some server in snyk.resources("Microsoft.Sql/servers")

resources contains {"primary_resource": server, "resource": setting, "result_tag": "retention"} if {
	some server in snyk.resources("Microsoft.Sql/servers")
	some setting in enabled_settings(server)
}
