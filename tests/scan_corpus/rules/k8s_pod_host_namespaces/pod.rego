# Single-resource rule, Rego v0: deny[msg] strings, one per shared host namespace.
package rules.k8s_pod_host_namespaces

resource_type := "Pod"

input_type := "k8s"

metadata := {
	"id": "SNYK-CC-K8S-7",
	"title": "Pod shares host namespaces",
	"description": "hostNetwork, hostPID and hostIPC give the pod visibility of the node's network stack, processes or IPC.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Remove `hostNetwork`, `hostPID` and `hostIPC` from the pod spec, or set them to false."},
	"severity": "Medium",
}

host_fields := ["hostNetwork", "hostPID", "hostIPC"]

deny[msg] {
	field := host_fields[_]
	object.get(input.spec, field, false) == true
	msg := sprintf("Pod %s/%s sets spec.%s", [input._namespace, input.metadata.name, field])
}
