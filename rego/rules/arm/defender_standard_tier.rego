# Microsoft Defender for Cloud plans are on (Standard tier).
package rules.arm_defender_standard_tier

import rego.v1

resource_type := "Microsoft.Security/pricings"

input_type := "arm"

metadata := {
	"id": "RE-ARM-015",
	"title": "Microsoft Defender for Cloud plans are on (Standard tier)",
	"description": "The Free tier gives posture recommendations only; threat detection needs the Standard tier of each plan.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "medium",
	"aliases": ["CKV_AZURE_19"],
	"controls": ["CIS-Azure_v1.3.0_2.1", "CIS-Azure_v1.3.0_2.2", "CIS-Azure_v1.3.0_2.3", "CIS-Azure_v1.3.0_2.4", "CIS-Azure_v1.3.0_2.5", "CIS-Azure_v1.3.0_2.6", "CIS-Azure_v1.3.0_2.7", "CIS-Azure_v1.3.0_2.8"],
	"remediation": {"arm": "Set properties.pricingTier to \"Standard\"."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/enable-enhanced-security", "https://learn.microsoft.com/en-us/azure/templates/microsoft.security/pricings"],
}

deny contains info if {
	input.properties.pricingTier != "Standard"
	info := {"message": sprintf("pricingTier is %v.", [input.properties.pricingTier]), "attributes": [["properties", "pricingTier"]]}
}
