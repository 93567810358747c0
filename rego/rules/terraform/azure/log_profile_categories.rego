# Activity log profiles capture every category.
package rules.tf_azure_log_profile_categories

import rego.v1

resource_type := "azurerm_monitor_log_profile"

input_type := "tf"

metadata := {
	"id": "RE-AZ-033",
	"title": "Activity log profiles capture writes, deletes and actions",
	"description": "A log profile exports only the categories it lists; leaving out Write, Delete or Action drops those operations from the exported activity log.",
	"platform": ["Azure"],
	"category": "Logging",
	"service_group": "Monitor",
	"severity": "low",
	"aliases": ["CKV_AZURE_38"],
	"controls": ["CIS-Azure_v1.1.0_5.1.3"],
	"remediation": {"terraform": "Set categories = [\"Action\", \"Delete\", \"Write\"]."},
	"references": ["https://learn.microsoft.com/en-us/azure/azure-monitor/essentials/activity-log", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_log_profile"],
}

required := {"Action", "Delete", "Write"}

deny contains info if {
	missing := required - {c | some c in object.get(input, "categories", [])}
	count(missing) > 0
	info := {"message": sprintf("The profile leaves out %s.", [concat(", ", sort(missing))]), "attributes": [["categories"]]}
}
