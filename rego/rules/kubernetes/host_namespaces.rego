# Pods do not share the node's network, PID or IPC namespaces: one result per
# namespace.
package rules.k8s_host_namespaces

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-005",
	"title": "Pods do not share host namespaces",
	"description": "hostNetwork exposes the node's network interfaces (and lets the pod bind node ports), hostPID shows every process on the node, hostIPC its shared memory. The Baseline Pod Security Standard forbids all three.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "high",
	"remediation": {"kubernetes": "Remove hostNetwork, hostPID and hostIPC from the pod spec (or set them to false)."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline"],
}

host_fields := ["hostNetwork", "hostPID", "hostIPC"]

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some field in host_fields
	k8s.pod_spec(w)[field] == true
	info := {
		"resource": w,
		"result_tag": field,
		"message": sprintf("The pod sets %s: true.", [field]),
		"attributes": [array.concat(k8s.pod_spec_paths[kind], [field])],
	}
}

resources contains {"resource": w, "result_tag": field} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some field in host_fields
}
