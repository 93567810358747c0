# SQL servers have Microsoft Defender for SQL (threat detection) on.
package rules.tf_azure_sql_server_threat_detection

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AZ-010",
	"title": "SQL servers have threat detection enabled",
	"description": "A server security alert policy turns on Advanced Threat Protection, which alerts on SQL injection, unusual access and brute-force attempts. A server with no enabled policy gets no such alerts. The rule accepts an azurerm_mssql_server_security_alert_policy for the server with state Enabled, or an enabled inline threat_detection_policy (provider v2).",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.2.1"],
	"remediation": {"terraform": "Add an azurerm_mssql_server_security_alert_policy whose server_name is the server's name, with state = \"Enabled\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server_security_alert_policy"],
}

relation := "azurerm_mssql_server.security_alert_policy"

types := ["azurerm_mssql_server", "azurerm_sql_server"]

enabled(server) if {
	some policy in snyk.relates(server, relation)
	policy.state == "Enabled"
}

enabled(server) if {
	some policy in object.get(server, "threat_detection_policy", [])
	policy.state == "Enabled"
}

deny contains info if {
	some type in types
	some server in snyk.resources(type)
	not enabled(server)
	info := {"resource": server, "message": "No enabled security alert policy covers the server."}
}

resources contains {"resource": server} if {
	some type in types
	some server in snyk.resources(type)
}

resources contains info if {
	some type in types
	some server in snyk.resources(type)
	some policy in snyk.relates(server, relation)
	info := {"primary_resource": server, "resource": policy, "attributes": [["state"]]}
}
