# Containers do not run as user 0.
package rules.k8s_run_as_root_user

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-020",
	"title": "Containers do not run as user 0",
	"description": "runAsUser: 0 runs the container's processes as root whatever its image says. The Restricted Pod Security Standard forbids it.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_restricted_Running-as-Non-root-user"],
	"remediation": {"kubernetes": "Set securityContext.runAsUser to a non-zero user id, or remove it and set runAsNonRoot: true."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	k8s.security_setting(w, container, "runAsUser") == 0
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s runs as user 0.", [container.name])}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
