# Single-resource rule, Rego v1: privileged containers in a Pod.
package rules.k8s_pod_privileged

import rego.v1

resource_type := "Pod"

input_type := "k8s"

metadata := {
	"id": "SNYK-CC-K8S-1",
	"title": "Container is running in privileged mode",
	"description": "A privileged container has all host capabilities and can escape to the node.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Set `securityContext.privileged` to `false` or remove it."},
	"references": "https://kubernetes.io/docs/concepts/security/pod-security-standards/",
	"category": "Compute",
	"labels": ["pod security"],
	"service_group": "Pod",
	"controls": ["CIS-Kubernetes_v1.6.1_5.2.1"],
	"severity": "High",
	"kind": "vulnerability",
}

container_keys := ["initContainers", "containers"]

deny contains info if {
	some key in container_keys
	some i, c in object.get(input.spec, key, [])
	c.securityContext.privileged == true
	info := {
		"message": sprintf("Container %q in Pod %s/%s runs in privileged mode", [c.name, input._namespace, input.metadata.name]),
		"attributes": [["spec", key, i, "securityContext", "privileged"]],
	}
}
