# SQL servers have a Microsoft Entra ID administrator.
package rules.arm_sql_entra_admin

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-033",
	"title": "SQL servers have a Microsoft Entra ID administrator",
	"description": "With an Entra ID administrator, database access can use Entra identities (with their MFA, conditional access and central revocation) instead of SQL logins alone. The rule reads the server's properties.administrators and its administrators children.",
	"platform": ["Azure"],
	"category": "Identity and access",
	"service_group": "SQL",
	"severity": "medium",
	"controls": ["CIS-Azure_v1.3.0_4.4"],
	"remediation": {"arm": "Set properties.administrators (login, sid, administratorType ActiveDirectory) on the Microsoft.Sql/servers, or add an administrators child named ActiveDirectory."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/azure-sql/database/authentication-aad-configure",
		"https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/administrators",
	],
}

children(server, type) := [c | some c in snyk.resources(type); c._parent_id == server._id]

configured(server) if server.properties.administrators.login

configured(server) if count(children(server, "Microsoft.Sql/servers/administrators")) > 0

deny contains info if {
	some server in snyk.resources("Microsoft.Sql/servers")
	not configured(server)
	info := {"resource": server, "message": "The server has no Entra ID administrator."}
}

resources contains {"resource": server} if some server in snyk.resources("Microsoft.Sql/servers")
