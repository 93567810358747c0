# Windows pods do not run as HostProcess containers.
package rules.k8s_host_process

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-010",
	"title": "Windows pods do not run as HostProcess containers",
	"description": "A HostProcess container runs directly on the Windows node with the node's privileges, outside any container isolation. The Baseline Pod Security Standard forbids it.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "high",
	"controls": ["K8S-PSS_baseline_HostProcess"],
	"remediation": {"kubernetes": "Remove securityContext.windowsOptions.hostProcess (or set it to false) from the pod and its containers."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	k8s.security_setting(w, container, "windowsOptions").hostProcess == true
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s runs as a HostProcess container.", [container.name]),
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
