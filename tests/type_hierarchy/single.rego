# A single-resource rule whose resource_type is a supertype: asked once per
# Deployment, ReplicaSet, ... of the input.
package rules.workload_limits

import rego.v1

resource_type := "workload"

metadata := {"id": "TH-2", "title": "workloads set resource limits", "severity": "medium"}

deny contains msg if {
	some c in input.spec.template.spec.containers
	not c.resources.limits
	msg := sprintf("%s %s: container %s has no limits", [input.kind, input.metadata.name, c.name])
}
