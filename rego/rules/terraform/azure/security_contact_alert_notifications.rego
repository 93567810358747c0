# Security contacts receive alert notifications.
package rules.tf_azure_security_contact_alert_notifications

import rego.v1

resource_type := "azurerm_security_center_contact"

input_type := "tf"

metadata := {
	"id": "RE-AZ-018",
	"title": "Security contacts receive alert notifications",
	"description": "With alert_notifications off, Defender for Cloud sends no e-mail about high-severity alerts to the security contact.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"aliases": ["CKV_AZURE_21"],
	"controls": ["CIS-Azure_v1.3.0_2.14"],
	"remediation": {"terraform": "Set alert_notifications = true on the azurerm_security_center_contact."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/configure-email-notifications", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/security_center_contact"],
}

deny contains info if {
	object.get(input, "alert_notifications", false) != true
	info := {"message": "alert_notifications is not true.", "attributes": [["alert_notifications"]]}
}
