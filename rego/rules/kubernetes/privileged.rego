# Containers do not run privileged: one result per container.
package rules.k8s_privileged

import data.shipped_lib.k8s
import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "RE-K8S-001",
	"title": "Containers do not run privileged",
	"description": "A privileged container has every capability and access to the host's devices; escaping to the node is trivial. The Baseline Pod Security Standard forbids it.",
	"platform": ["Kubernetes"],
	"category": "Workload security",
	"service_group": "Pods",
	"severity": "high",
	"aliases": ["CKV_K8S_16"],
	"remediation": {"kubernetes": "Remove securityContext.privileged (or set it to false) and grant only the specific capabilities the container needs."},
	"references": [
		"https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline",
		"https://kubernetes.io/docs/tasks/configure-pod-container/security-context/",
	],
}

deny contains info if {
	some kind in k8s.workload_kinds
	some workload in snyk.resources(kind)
	some [container, path] in k8s.containers(workload)
	k8s.privileged(container)
	info := {
		"resource": workload,
		"result_tag": k8s.container_tag(container),
		"message": sprintf("Container %s is privileged.", [container.name]),
		"attributes": [array.concat(path, ["securityContext", "privileged"])],
	}
}

resources contains info if {
	some kind in k8s.workload_kinds
	some workload in snyk.resources(kind)
	some [container, _] in k8s.containers(workload)
	info := {"resource": workload, "result_tag": k8s.container_tag(container)}
}
