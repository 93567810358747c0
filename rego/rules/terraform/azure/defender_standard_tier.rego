# Microsoft Defender for Cloud plans use the Standard tier.
package rules.tf_azure_defender_standard_tier

import rego.v1

resource_type := "azurerm_security_center_subscription_pricing"

input_type := "tf"

metadata := {
	"id": "RE-AZ-017",
	"title": "Microsoft Defender for Cloud plans are on (Standard tier)",
	"description": "The Free tier of Defender for Cloud gives posture recommendations only; threat detection for servers, databases, storage, containers and Key Vault needs the Standard tier of each plan.",
	"platform": ["Azure"],
	"category": "Threat detection",
	"service_group": "Defender for Cloud",
	"severity": "medium",
	"aliases": ["CKV_AZURE_19"],
	"controls": ["CIS-Azure_v1.3.0_2.1", "CIS-Azure_v1.3.0_2.2", "CIS-Azure_v1.3.0_2.3", "CIS-Azure_v1.3.0_2.4", "CIS-Azure_v1.3.0_2.5", "CIS-Azure_v1.3.0_2.6", "CIS-Azure_v1.3.0_2.7", "CIS-Azure_v1.3.0_2.8"],
	"remediation": {"terraform": "Set tier = \"Standard\" on the azurerm_security_center_subscription_pricing of each resource_type."},
	"references": ["https://learn.microsoft.com/en-us/azure/defender-for-cloud/enable-enhanced-security", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/security_center_subscription_pricing"],
}

deny contains info if {
	input.tier != "Standard"
	info := {"message": sprintf("The tier is %v.", [input.tier]), "attributes": [["tier"]]}
}
