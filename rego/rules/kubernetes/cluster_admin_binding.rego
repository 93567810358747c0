# Workloads do not run as a service account bound to cluster-admin or to a
# role granting every verb on every resource. Joins ServiceAccount,
# RoleBinding.subjects and RoleBinding.roleRef.
package rules.k8s_cluster_admin_binding

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-008",
	"title": "Workloads do not run with cluster-admin privileges",
	"description": "Every pod can read its service account's token. A service account bound to cluster-admin, or to a Role or ClusterRole allowing all verbs on all resources, hands full control of the cluster (or namespace) to anyone who compromises the pod.",
	"platform": ["Kubernetes"],
	"category": "Identity and access",
	"service_group": "RBAC",
	"severity": "high",
	"remediation": {"kubernetes": "Bind the workload's service account to a Role listing only the verbs and resources it needs; set automountServiceAccountToken: false where the API is not used."},
	"references": [
		"https://kubernetes.io/docs/reference/access-authn-authz/rbac/#user-facing-roles",
		"https://kubernetes.io/docs/concepts/security/rbac-good-practices/",
	],
}

wildcard_role(role) if {
	some rule in role.rules
	"*" in rule.verbs
	"*" in rule.resources
}

# Why a binding is all-powerful: the built-in cluster-admin, or a wildcard role.
all_powerful(binding) := "cluster-admin" if {
	binding.roleRef.kind == "ClusterRole"
	binding.roleRef.name == "cluster-admin"
} else := sprintf("%s %s, which allows every verb on every resource", [role._type, role.metadata.name]) if {
	some role in snyk.relates(binding, "RoleBinding.roleRef")
	wildcard_role(role)
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some account in snyk.back_relates("ServiceAccount", w)
	some binding in snyk.back_relates("RoleBinding.subjects", account)
	why := all_powerful(binding)
	info := {
		"resource": w,
		"result_tag": sprintf("%s[%s]", [binding._type, binding.metadata.name]),
		"message": sprintf("The workload runs as service account %s, bound by %s %s to %s.", [account.metadata.name, binding._type, binding.metadata.name, why]),
		"graph": [
			{"source": w, "label": "runs as", "target": account},
			{"source": binding, "label": "binds", "target": account},
		],
	}
}

resources contains {"resource": w} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
}
