# Containers use the default /proc mount.
package rules.k8s_proc_mount

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-016",
	"title": "Containers use the default /proc mount",
	"description": "An Unmasked /proc mount exposes kernel paths the runtime normally hides from containers. The Baseline Pod Security Standard requires the Default mount type.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"controls": ["K8S-PSS_baseline_Proc-Mount-Type"],
	"remediation": {"kubernetes": "Remove securityContext.procMount (or set it to Default)."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	mount := object.get(container, ["securityContext", "procMount"], "Default")
	mount != "Default"
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s mounts /proc as %v.", [container.name, mount]),
		"attributes": [array.concat(path, ["securityContext", "procMount"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
