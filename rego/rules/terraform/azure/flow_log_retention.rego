# NSG flow logs are kept for at least 90 days.
package rules.tf_azure_flow_log_retention

import rego.v1

resource_type := "azurerm_network_watcher_flow_log"

input_type := "tf"

metadata := {
	"id": "RE-AZ-034",
	"title": "NSG flow logs are retained for at least 90 days",
	"description": "Flow logs show which addresses reached which machines; kept for less than 90 days they are often gone by the time an intrusion is found.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Network Watcher",
	"severity": "low",
	"aliases": ["CKV_AZURE_12"],
	"controls": ["CIS-Azure_v1.3.0_6.4"],
	"remediation": {"terraform": "Set retention_policy { enabled = true, days = 90 } (or more) on the azurerm_network_watcher_flow_log."},
	"references": ["https://learn.microsoft.com/en-us/azure/network-watcher/nsg-flow-logs-overview", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_watcher_flow_log"],
}

deny contains info if {
	not input.retention_policy
	info := {"message": "The flow log has no retention policy."}
}

deny contains info if {
	some i, policy in input.retention_policy
	not kept(policy)
	info := {"message": "Flow logs are not kept for 90 days.", "attributes": [["retention_policy", i]]}
}

kept(policy) if {
	policy.enabled == true
	policy.days >= 90
}

kept(policy) if {
	policy.enabled == true
	policy.days == 0
}
