# Security alerts also go to subscription owners.
package rules.tf_azure_security_contact_alerts_to_admins

import rego.v1

resource_type := "azurerm_security_center_contact"

input_type := "tf"

metadata := {
	"id": "RE-AZ-019",
	"title": "Security alerts also go to subscription owners",
	"description": "alerts_to_admins sends Defender for Cloud alerts to the subscription's owners as well as to the security contact.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"aliases": ["CKV_AZURE_22"],
	"controls": ["CIS-Azure_v1.3.0_2.15"],
	"remediation": {"terraform": "Set alerts_to_admins = true on the azurerm_security_center_contact."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/configure-email-notifications", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/security_center_contact"],
}

deny contains info if {
	object.get(input, "alerts_to_admins", false) != true
	info := {"message": "alerts_to_admins is not true.", "attributes": [["alerts_to_admins"]]}
}
