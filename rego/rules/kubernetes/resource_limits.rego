# Containers declare CPU and memory limits (Rego v0): one result per container.
package rules.k8s_resource_limits

import data.shipped_lib.k8s
import data.snyk

input_type := "k8s"

metadata := {
	"id": "RE-K8S-004",
	"title": "Containers have CPU and memory limits",
	"description": "Without limits a container can use all of a node's CPU and memory, starving its neighbours; memory limits also let the kubelet evict the right pod under pressure.",
	"platform": ["Kubernetes"],
	"category": "Availability",
	"service_group": "Pods",
	"severity": "low",
	"remediation": {"kubernetes": "Set resources.limits.cpu and resources.limits.memory on every container (or a LimitRange default in the namespace)."},
	"references": ["https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/"],
}

deny[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	[c, path] := k8s.containers(w)[_]
	missing := [r | r := ["cpu", "memory"][_]; not c.resources.limits[r]]
	count(missing) > 0
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(c),
		"message": sprintf("Container %s has no %s limit.", [c.name, concat(" or ", missing)]),
		"attributes": [array.concat(path, ["resources"])],
	}
}

resources[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	[c, _] := k8s.containers(w)[_]
	info := {"resource": w, "result_tag": k8s.container_tag(c)}
}
