# Containers run with a read-only root filesystem: one result per container.
package rules.k8s_read_only_root_filesystem

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-023",
	"title": "Containers have a read-only root filesystem",
	"description": "A writable root filesystem lets an intruder who gets into a container change its binaries and configuration or drop tools there. With readOnlyRootFilesystem: true the image stays as built, and the paths the application must write to are mounted explicitly.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "low",
	"aliases": ["CKV_K8S_22"],
	"controls": ["NSA-CISA-K8S_v1.2_Immutable-Container-Filesystems"],
	"remediation": {"kubernetes": "Set securityContext.readOnlyRootFilesystem: true on every container, and mount an emptyDir (or another volume) at each path it writes to, such as /tmp."},
	"references": [
		"https://kubernetes.io/docs/tasks/configure-pod-container/security-context/",
		"https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#security-context-1",
	],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	object.get(container, ["securityContext", "readOnlyRootFilesystem"], false) != true
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s does not set readOnlyRootFilesystem: true.", [container.name]),
		"attributes": [array.concat(path, ["securityContext"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(container)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, _] in k8s.containers(w)
}
