# Security contacts have an address, get alert e-mails, and alerts reach
# subscription owners: one result per setting.
package rules.arm_security_contacts

import rego.v1

resource_type := "Microsoft.Security/securityContacts"

input_type := "arm"

metadata := {
	"id": "RE-ARM-027",
	"title": "Security contacts have an e-mail address and receive alerts",
	"description": "Defender for Cloud tells people about attacks by e-mail: the contact needs an address, alert notifications on, and the subscription owners included. The rule reads both schemas of the resource: email, alertNotifications and alertsToAdmins (2017 API) and emails, alertNotifications.state and notificationsByRole (2020 API).",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"aliases": ["CKV_AZURE_21", "CKV_AZURE_22"],
	"controls": ["CIS-Azure_v1.3.0_2.13", "CIS-Azure_v1.3.0_2.14", "CIS-Azure_v1.3.0_2.15"],
	"remediation": {"arm": "Set properties.emails (or email), alertNotifications to On (state On in the 2020 API) and alertsToAdmins to On (notificationsByRole with state On and the Owner role)."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/configure-email-notifications", "https://learn.microsoft.com/en-us/azure/templates/microsoft.security/securitycontacts"],
}

props := object.get(input, "properties", {})

has_email if {
	some key in ["email", "emails"]
	is_string(props[key])
	props[key] != ""
}

# alertNotifications: "On" (2017) or {"state": "On"} (2020).
alerts_on if props.alertNotifications == "On"

alerts_on if props.alertNotifications.state == "On"

owners_notified if props.alertsToAdmins == "On"

owners_notified if {
	props.notificationsByRole.state == "On"
	"Owner" in props.notificationsByRole.roles
}

deny contains info if {
	not has_email
	info := {"result_tag": "email", "message": "The security contact has no e-mail address.", "attributes": [["properties"]]}
}

deny contains info if {
	not alerts_on
	info := {"result_tag": "alertNotifications", "message": "Alert notifications are not on.", "attributes": [["properties", "alertNotifications"]]}
}

deny contains info if {
	not owners_notified
	info := {"result_tag": "owners", "message": "Alerts do not go to subscription owners.", "attributes": [["properties"]]}
}
