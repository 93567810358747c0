# AKS clusters use Kubernetes role-based access control.
package rules.tf_azure_aks_rbac

import rego.v1

resource_type := "azurerm_kubernetes_cluster"

input_type := "tf"

metadata := {
	"id": "RE-AZ-023",
	"title": "AKS clusters have Kubernetes RBAC enabled",
	"description": "Without role-based access control, every authenticated user of the cluster's API has full rights over it. RBAC is on by default; this rule fails clusters that turn it off.",
	"platform": ["Azure"],
	"category": "Identity and access",
	"service_group": "AKS",
	"severity": "high",
	"aliases": ["CKV_AZURE_5"],
	"controls": ["CIS-Azure_v1.3.0_8.5"],
	"remediation": {"terraform": "Remove role_based_access_control_enabled = false (or role_based_access_control { enabled = false } in provider v2)."},
	"references": ["https://learn.microsoft.com/en-us/azure/aks/concepts-identity", "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/kubernetes_cluster#role_based_access_control_enabled"],
}

deny contains info if {
	input.role_based_access_control_enabled == false
	info := {"message": "role_based_access_control_enabled is false.", "attributes": [["role_based_access_control_enabled"]]}
}

deny contains info if {
	some i, rbac in input.role_based_access_control
	rbac.enabled == false
	info := {"message": "role_based_access_control.enabled is false.", "attributes": [["role_based_access_control", i, "enabled"]]}
}
