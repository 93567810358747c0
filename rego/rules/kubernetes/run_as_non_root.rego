# Containers run as a non-root user, set on the container or inherited from
# the pod's securityContext: one result per container.
package rules.k8s_run_as_non_root

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-003",
	"title": "Containers run as a non-root user",
	"description": "A container running as UID 0 is root on the node if it escapes. runAsNonRoot: true (on the container or the pod) makes the kubelet refuse to start a container whose image runs as root; a non-zero runAsUser also suffices.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"remediation": {"kubernetes": "Set securityContext.runAsNonRoot: true (and a non-zero runAsUser) on the pod or on every container."},
	"references": [
		"https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted",
		"https://kubernetes.io/docs/tasks/configure-pod-container/security-context/#set-the-security-context-for-a-pod",
	],
}

non_root(w, c) if k8s.security_setting(w, c, "runAsNonRoot") == true

non_root(w, c) if k8s.security_setting(w, c, "runAsUser") > 0

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, path] in k8s.containers(w)
	not non_root(w, c)
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(c),
		"message": sprintf("Container %s may run as root (no runAsNonRoot: true or non-zero runAsUser).", [c.name]),
		"attributes": [path],
	}
}

resources contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
	info := {"resource": w, "result_tag": k8s.container_tag(c)}
}
