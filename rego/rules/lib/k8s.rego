# Helpers the shipped Kubernetes rules share: workloads, their pod specs and
# containers with the attribute paths that locate them. Not a rule (no deny).
package shipped_lib.k8s

import rego.v1

# Workload kind → path of its pod spec.
pod_spec_paths := {
	"Pod": ["spec"],
	"Deployment": ["spec", "template", "spec"],
	"StatefulSet": ["spec", "template", "spec"],
	"DaemonSet": ["spec", "template", "spec"],
	"ReplicaSet": ["spec", "template", "spec"],
	"ReplicationController": ["spec", "template", "spec"],
	"Job": ["spec", "template", "spec"],
	"CronJob": ["spec", "jobTemplate", "spec", "template", "spec"],
}

workload_kinds := {kind | some kind, _ in pod_spec_paths}

pod_spec(w) := object.get(w, pod_spec_paths[w._type], {})

# [container, its attribute path] for every container and init container.
containers(w) := [[c, array.concat(pod_spec_paths[w._type], [field, i])] |
	some field in ["initContainers", "containers"]
	some i, c in object.get(pod_spec(w), field, [])
]

container_tag(c) := sprintf("container[%s]", [c.name])

# A container's effective securityContext field: its own, else the pod's.
security_setting(w, c, field) := c.securityContext[field]

security_setting(w, c, field) := pod_spec(w).securityContext[field] if not has_key(object.get(c, "securityContext", {}), field)

has_key(obj, key) if _ = obj[key]

privileged(c) if c.securityContext.privileged == true
