# Containers do not run without seccomp.
package rules.k8s_seccomp_unconfined

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-017",
	"title": "Containers do not run without seccomp",
	"description": "A seccomp profile of Unconfined lets the container make every system call, including those used in container escapes. The Baseline Pod Security Standard forbids it.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_baseline_Seccomp"],
	"remediation": {"kubernetes": "Set securityContext.seccompProfile.type to RuntimeDefault (or Localhost) on the pod or container, or remove the Unconfined profile."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
	k8s.security_setting(w, container, "seccompProfile").type == "Unconfined"
	info := {"resource": w, "result_tag": k8s.container_tag(container), "message": sprintf("Container %s runs without seccomp.", [container.name])}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
