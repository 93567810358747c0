# Defender for Cloud installs its monitoring agent automatically.
package rules.tf_azure_auto_provisioning

import rego.v1

resource_type := "azurerm_security_center_auto_provisioning"

input_type := "tf"

metadata := {
	"id": "RE-AZ-037",
	"title": "Defender for Cloud auto-provisioning is on",
	"description": "With auto-provisioning off, new virtual machines get no monitoring agent and Defender for Cloud collects no security data from them.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_2.11"],
	"remediation": {"terraform": "Set auto_provision = \"On\" on the azurerm_security_center_auto_provisioning."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/monitoring-components", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/security_center_auto_provisioning"],
}

deny contains info if {
	input.auto_provision != "On"
	info := {"message": sprintf("auto_provision is %v.", [input.auto_provision]), "attributes": [["auto_provision"]]}
}
