# Containers forbid privilege escalation (Rego v0): one result per container.
package rules.k8s_privilege_escalation

import data.shipped_lib.k8s
import data.snyk

input_type := "k8s"

metadata := {
	"id": "RE-K8S-002",
	"title": "Containers do not allow privilege escalation",
	"description": "Unless allowPrivilegeEscalation is false, a process in the container can gain more privileges than its parent (through setuid binaries, for example). The Restricted Pod Security Standard requires it to be false.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"aliases": ["CKV_K8S_20"],
	"remediation": {"kubernetes": "Set securityContext.allowPrivilegeEscalation: false on every container."},
	"references": [
		"https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted",
		"https://kubernetes.io/docs/tasks/configure-pod-container/security-context/",
	],
}

workloads[w] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
}

deny[info] {
	w := workloads[_]
	[container, path] := k8s.containers(w)[_]
	object.get(container, ["securityContext", "allowPrivilegeEscalation"], true) != false
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s does not set allowPrivilegeEscalation: false.", [container.name]),
		"attributes": [array.concat(path, ["securityContext"])],
	}
}

resources[info] {
	w := workloads[_]
	[container, _] := k8s.containers(w)[_]
	info := {"resource": w, "result_tag": k8s.container_tag(container)}
}
