# Containers run with the runtime's default or a node-local seccomp profile.
package rules.k8s_seccomp_required

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-021",
	"title": "Containers run with the runtime's default or a node-local seccomp profile",
	"description": "Without a seccomp profile the container may make every system call. The Restricted Pod Security Standard requires the pod or each container to set seccompProfile.type to RuntimeDefault or Localhost.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "low",
	"aliases": ["CKV_K8S_31"],
	"controls": ["K8S-PSS_restricted_Seccomp"],
	"remediation": {"kubernetes": "Set securityContext.seccompProfile.type: RuntimeDefault on the pod (or on each container)."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

confined(w, container) if k8s.security_setting(w, container, "seccompProfile").type in {"RuntimeDefault", "Localhost"}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	not confined(w, container)
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s has no RuntimeDefault or Localhost seccomp profile.", [container.name])}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
