# Containers do not bind host ports.
package rules.k8s_host_ports

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-012",
	"title": "Containers do not bind host ports",
	"description": "A hostPort binds the container to a port on the node's own address, bypassing Services and network policies that select pods. The Baseline Pod Security Standard forbids host ports.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "medium",
	"aliases": ["CKV_K8S_26"],
	"controls": ["K8S-PSS_baseline_Host-Ports"],
	"remediation": {"kubernetes": "Remove hostPort from the container's ports and expose the pod through a Service."},
	"references": ["https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline", "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [container, path] in k8s.containers(w)
	some i, port in object.get(container, "ports", [])
	object.get(port, "hostPort", 0) != 0
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s binds host port %v.", [container.name, port.hostPort]),
		"attributes": [array.concat(path, ["ports", i, "hostPort"])],
	}
}

resources contains {"resource": w, "result_tag": k8s.container_tag(c)} if {
	some kind in k8s.workload_kinds
	some w in snyk.resources(kind)
	some [c, _] in k8s.containers(w)
}
