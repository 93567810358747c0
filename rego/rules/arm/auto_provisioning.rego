# Defender for Cloud installs its monitoring agent automatically.
package rules.arm_auto_provisioning

import rego.v1

resource_type := "Microsoft.Security/autoProvisioningSettings"

input_type := "arm"

metadata := {
	"id": "RE-ARM-026",
	"title": "Defender for Cloud auto-provisioning is on",
	"description": "With auto-provisioning on, Defender for Cloud installs its monitoring agent on new virtual machines, so none is left without security monitoring.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "low",
	"controls": ["CIS-Azure_v1.3.0_2.11"],
	"remediation": {"arm": "Set properties.autoProvision to \"On\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/monitoring-components", "https://learn.microsoft.com/en-us/azure/templates/microsoft.security/autoprovisioningsettings"],
}

deny contains info if {
	object.get(input, ["properties", "autoProvision"], "Off") != "On"
	info := {"message": sprintf("autoProvision is %v.", [object.get(input, ["properties", "autoProvision"], "not set")]), "attributes": [["properties", "autoProvision"]]}
}
