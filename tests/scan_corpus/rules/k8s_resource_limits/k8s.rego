# Multi-resource rule, Rego v1: `every` container must set CPU and memory limits.
package rules.k8s_resource_limits

import data.snyk
import rego.v1

input_type := "k8s"

metadata := {
	"id": "SNYK-CC-K8S-4",
	"title": "Container has no CPU or memory limit",
	"description": "Containers without limits can starve other workloads on the node.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Set `resources.limits.cpu` and `resources.limits.memory` on every container."},
	"category": "Compute",
	"service_group": "Workloads",
	"severity": "medium",
}

required := ["cpu", "memory"]

workloads contains w if {
	some r in snyk.resources("Deployment")
	w := {"resource": r, "path": ["spec", "template", "spec", "containers"], "containers": r.spec.template.spec.containers}
}

workloads contains w if {
	some r in snyk.resources("Pod")
	w := {"resource": r, "path": ["spec", "containers"], "containers": r.spec.containers}
}

limited(c) if {
	every k in required {
		object.get(c, ["resources", "limits", k], null) != null
	}
}

deny contains info if {
	some w in workloads
	some i, c in w.containers
	not limited(c)
	missing := [k | some k in required; object.get(c, ["resources", "limits", k], null) == null]
	info := {
		"resource": w.resource,
		"message": sprintf("Container %q of %s has no %s limit", [c.name, w.resource.id, concat("/", missing)]),
		"attributes": [array.concat(w.path, [i, "resources"])],
	}
}

resources contains info if {
	some w in workloads
	info := {"resource": w.resource, "context": {"containers": count(w.containers)}}
}
