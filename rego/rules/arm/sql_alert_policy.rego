# SQL security alert policies alert on every type and reach people: one result
# per setting.
package rules.arm_sql_alert_policy

import rego.v1

resource_type := "Microsoft.Sql/servers/securityAlertPolicies"

input_type := "arm"

metadata := {
	"id": "RE-ARM-039",
	"title": "SQL security alert policies cover every alert type and e-mail people",
	"description": "A threat detection policy helps only if its alerts reach someone and none is switched off: it should name e-mail recipients, also alert the subscription administrators, and leave disabledAlerts empty.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "SQL",
	"severity": "low",
	"aliases": ["CKV_AZURE_25", "CKV_AZURE_26", "CKV_AZURE_27"],
	"controls": ["CIS-Azure_v1.3.0_4.2.1"],
	"remediation": {"arm": "In the policy's properties, set emailAddresses to the security team's addresses, emailAccountAdmins to true, and disabledAlerts to an empty list."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-sql/database/threat-detection-configure", "https://learn.microsoft.com/en-us/azure/templates/microsoft.sql/servers/securityalertpolicies"],
}

props := object.get(input, "properties", {})

deny contains info if {
	count([a | some a in object.get(props, "emailAddresses", []); a != ""]) == 0
	info := {"result_tag": "emailAddresses", "message": "The policy sends alerts to no e-mail address.", "attributes": [["properties", "emailAddresses"]]}
}

deny contains info if {
	object.get(props, "emailAccountAdmins", false) != true
	info := {"result_tag": "emailAccountAdmins", "message": "emailAccountAdmins is not true.", "attributes": [["properties", "emailAccountAdmins"]]}
}

deny contains info if {
	disabled := [a | some a in object.get(props, "disabledAlerts", []); a != ""]
	count(disabled) > 0
	info := {"result_tag": "disabledAlerts", "message": sprintf("Alert types are disabled: %s.", [concat(", ", [sprintf("%v", [a]) | some a in disabled])]), "attributes": [["properties", "disabledAlerts"]]}
}
