# Activity log profiles keep a year of writes, deletes and actions: one result
# per setting.
package rules.arm_log_profile

import rego.v1

resource_type := "Microsoft.Insights/logprofiles"

input_type := "arm"

metadata := {
	"id": "RE-ARM-040",
	"title": "Activity log profiles capture writes, deletes and actions for at least 365 days",
	"description": "The activity log records who changed what in the subscription. A log profile exporting it should take in the Write, Delete and Action categories and keep them at least a year (0 days keeps them forever).",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Monitor",
	"severity": "low",
	"aliases": ["CKV_AZURE_37", "CKV_AZURE_38"],
	"controls": ["CIS-Azure_v1.1.0_5.1.2", "CIS-Azure_v1.1.0_5.1.3"],
	"remediation": {"arm": "Set properties.categories to [\"Write\", \"Delete\", \"Action\"] and properties.retentionPolicy to {\"enabled\": true, \"days\": 365} or more (or 0)."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-monitor/essentials/activity-log", "https://learn.microsoft.com/en-us/azure/templates/microsoft.insights/logprofiles"],
}

required := {"Action", "Delete", "Write"}

props := object.get(input, "properties", {})

deny contains info if {
	missing := required - {c | some c in object.get(props, "categories", [])}
	count(missing) > 0
	info := {"result_tag": "categories", "message": sprintf("The profile leaves out %s.", [concat(", ", sort(missing))]), "attributes": [["properties", "categories"]]}
}

deny contains info if {
	policy := object.get(props, "retentionPolicy", {})
	policy.enabled == true
	days := object.get(policy, "days", 0)
	days != 0
	days < 365
	info := {"result_tag": "retentionPolicy", "message": sprintf("Logs are kept %v days.", [days]), "attributes": [["properties", "retentionPolicy", "days"]]}
}
