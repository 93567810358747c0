# SQL servers protect TDE with a customer-managed key.
package rules.arm_sql_tde_cmk

import data.snyk
import rego.v1

input_type := "arm"

metadata := {
	"id": "RE-ARM-034",
	"title": "SQL servers protect TDE with a customer-managed key",
	"description": "Transparent data encryption keys are wrapped by a TDE protector, by default a service-managed one; a Key Vault key as protector lets the organisation control its rotation and revoke access to every database of the server. The rule reads the server's encryptionProtector children.",
	"platform": ["Azure"],
	"category": "Data protection",
	"service_group": "SQL",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_4.5"],
	"remediation": {"arm": "Add a Microsoft.Sql/servers/encryptionProtector child named current with serverKeyType AzureKeyVault and serverKeyName naming a Microsoft.Sql/servers/keys key from Key Vault."},
	"references": [
		"https://learn.microsoft.com/en-us/azure/azure-sql/database/transparent-data-encryption-byok-overview",
		"https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/encryptionprotector",
	],
}

children(server, type) := [c | some c in snyk.resources(type); c._parent_id == server._id]

configured(server) if {
	some protector in children(server, "Microsoft.Sql/servers/encryptionProtector")
	protector.properties.serverKeyType == "AzureKeyVault"
}

deny contains info if {
	some server in snyk.resources("Microsoft.Sql/servers")
	not configured(server)
	info := {"resource": server, "message": "The server's TDE protector is service-managed."}
}

resources contains {"resource": server} if some server in snyk.resources("Microsoft.Sql/servers")
