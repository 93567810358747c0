# NSG flow logs are kept for at least 90 days.
package rules.arm_flow_log_retention

import rego.v1

resource_type := "Microsoft.Network/networkWatchers/flowLogs"

input_type := "arm"

metadata := {
	"id": "RE-ARM-025",
	"title": "NSG flow logs are retained for at least 90 days",
	"description": "Flow logs show which addresses talked to what; an intrusion is often found months after it began, so they should be kept at least 90 days (0 days keeps them forever).",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Network Watcher",
	"severity": "low",
	"aliases": ["CKV_AZURE_12"],
	"controls": ["CIS-Azure_v1.3.0_6.4"],
	"remediation": {"arm": "Set properties.retentionPolicy to {\"enabled\": true, \"days\": 90} or more (0 for unlimited)."},
	"references": ["https://learn.microsoft.com/en-us/azure/network-watcher/nsg-flow-logs-overview", "https://learn.microsoft.com/en-us/azure/templates/microsoft.network/networkwatchers/flowlogs"],
}

kept(policy) if {
	policy.enabled == true
	policy.days >= 90
}

kept(policy) if {
	policy.enabled == true
	policy.days == 0
}

deny contains info if {
	not kept(object.get(input, ["properties", "retentionPolicy"], {}))
	info := {"message": "Flow logs are not kept for 90 days.", "attributes": [["properties", "retentionPolicy"]]}
}
