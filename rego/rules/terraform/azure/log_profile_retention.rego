# The activity log is kept for a year.
package rules.tf_azure_log_profile_retention

import rego.v1

resource_type := "azurerm_monitor_log_profile"

input_type := "tf"

metadata := {
	"id": "RE-AZ-032",
	"title": "Activity log profiles keep logs for at least 365 days",
	"description": "Investigations often need activity older than a few months. A log profile whose retention policy deletes logs before 365 days (0 days, or retention off, keeps them forever) loses that history.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Monitor",
	"severity": "low",
	"aliases": ["CKV_AZURE_37"],
	"controls": ["CIS-Azure_v1.1.0_5.1.2"],
	"remediation": {"terraform": "Set retention_policy { enabled = true, days = 365 } (or enabled = false to keep the logs forever)."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-monitor/essentials/activity-log", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_log_profile"],
}

deny contains info if {
	some i, policy in input.retention_policy
	policy.enabled == true
	days := object.get(policy, "days", 0)
	days != 0
	days < 365
	info := {"message": sprintf("Logs are kept %v days.", [days]), "attributes": [["retention_policy", i, "days"]]}
}
