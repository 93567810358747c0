# Containers add no capabilities beyond the default set.
package rules.k8s_added_capabilities

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-013",
	"title": "Containers add no capabilities beyond the default set",
	"description": "Capabilities such as SYS_ADMIN, NET_ADMIN or SYS_PTRACE give a container powers over the node's kernel. The Baseline Pod Security Standard allows adding only capabilities a container runtime grants by default anyway.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "high",
	"controls": ["K8S-PSS_baseline_Capabilities"],
	"remediation": {"kubernetes": "Remove the extra capabilities from securityContext.capabilities.add."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

allowed := {
	"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD",
	"NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT",
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	added := object.get(container, ["securityContext", "capabilities", "add"], [])
	extra := [c | some c in added; not upper(trim_prefix(c, "CAP_")) in allowed]
	count(extra) > 0
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s adds %s.", [container.name, concat(", ", extra)]),
		"attributes": [array.concat(path, ["securityContext", "capabilities", "add"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
