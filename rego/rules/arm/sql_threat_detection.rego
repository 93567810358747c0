# SQL servers have threat detection on.
package rules.arm_sql_threat_detection

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-032",
	"title": "SQL servers have threat detection on",
	"description": "Threat detection (Defender for SQL) flags SQL injection, unusual access and brute-force attempts against the server's databases. The rule reads the server's securityAlertPolicies children.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.2.1"],
	"remediation": {"arm": "Add a Microsoft.Sql/servers/securityAlertPolicies child named Default with properties.state Enabled."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-overview",
		"https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/securityalertpolicies",
	],
}

children(server, type) := [c | some c in snyk.resources(type); c._parent_id == server._id]

configured(server) if {
	some policy in children(server, "Microsoft.Sql/servers/securityAlertPolicies")
	policy.properties.state == "Enabled"
}

deny contains info if {
	some server in snyk.resources("Microsoft.Sql/servers")
	not configured(server)
	info := {"resource": server, "message": "Threat detection (an Enabled security alert policy) is not on."}
}

resources contains {"resource": server} if some server in snyk.resources("Microsoft.Sql/servers")
