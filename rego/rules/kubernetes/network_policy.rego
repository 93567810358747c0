# Every workload is selected by some NetworkPolicy of its namespace (Rego v0).
# Joins NetworkPolicy.podSelector.
package rules.k8s_network_policy

import data.shipped_lib.k8s
import data.snyk

input_type := "k8s"

metadata := {
	"id": "RE-K8S-009",
	"title": "Workloads are covered by a NetworkPolicy",
	"description": "Pods that no NetworkPolicy selects accept traffic from every pod in the cluster. A default-deny policy per namespace (an empty podSelector) plus policies allowing the expected flows limits lateral movement. Selectors using matchExpressions are not evaluated.",
	"platform": ["Kubernetes"],
	"category": "Network security",
	"service_group": "Networking",
	"severity": "medium",
	"remediation": {"kubernetes": "Add a NetworkPolicy in the workload's namespace whose podSelector matches its pod labels (an empty podSelector {} selects every pod)."},
	"references": ["https://kubernetes.io/docs/concepts/services-networking/network-policies/#default-policies"],
}

deny[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	count(snyk.back_relates("NetworkPolicy.podSelector", w)) == 0
	info := {"resource": w, "message": "No NetworkPolicy selects the workload's pods."}
}

resources[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	info := {"resource": w}
}

resources[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	policy := snyk.back_relates("NetworkPolicy.podSelector", w)[_]
	info := {"primary_resource": w, "resource": policy, "attributes": [["spec", "podSelector"]]}
}
