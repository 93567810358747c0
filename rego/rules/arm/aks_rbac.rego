# AKS clusters have Kubernetes RBAC enabled.
package rules.arm_aks_rbac

import rego.v1

resource_type := "Microsoft.ContainerService/managedClusters"

input_type := "arm"

metadata := {
	"id": "RE-ARM-009",
	"title": "AKS clusters have Kubernetes RBAC enabled",
	"description": "Without role-based access control every authenticated user of the cluster's API has full rights over it.",
	"platform": ["Azure"],
	"category": "Identity and access",
	"service_group": "AKS",
	"severity": "high",
	"aliases": ["CKV_AZURE_5"],
	"controls": ["CIS-Azure_v1.3.0_8.5"],
	"remediation": {"arm": "Set properties.enableRBAC to true."},
	"references": ["https://learn.microsoft.com/en-us/azure/aks/concepts-identity", "https://learn.microsoft.com/en-us/azure/templates/microsoft.containerservice/managedclusters"],
}

deny contains info if {
	input.properties.enableRBAC == false
	info := {"message": "enableRBAC is false.", "attributes": [["properties", "enableRBAC"]]}
}
