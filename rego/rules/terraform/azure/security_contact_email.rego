# Defender for Cloud has a security contact e-mail.
package rules.tf_azure_security_contact_email

import rego.v1

resource_type := "azurerm_security_center_contact"

input_type := "tf"

metadata := {
	"id": "RE-AZ-036",
	"title": "Security contacts have an e-mail address",
	"description": "Defender for Cloud sends security alerts and notices about compromised resources to the security contact's e-mail; without one they reach nobody outside the portal.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_2.13"],
	"remediation": {"terraform": "Set email on the azurerm_security_center_contact to an address the security team reads."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/configure-email-notifications", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/security_center_contact"],
}

deny contains info if {
	object.get(input, "email", "") == ""
	info := {"message": "The security contact has no e-mail address."}
}
