# Single-resource rule, Rego v1: per-info severity overrides the metadata's.
package rules.k8s_deployment_replicas

import rego.v1

resource_type := "Deployment"

input_type := "k8s"

metadata := {
	"id": "ACME-K8S-REPLICAS",
	"title": "Deployment runs a single replica",
	"description": "A single replica cannot survive a node drain or a crash without downtime.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Set `spec.replicas` to 2 or more, or attach a HorizontalPodAutoscaler."},
	"severity": "medium",
	"kind": "best-practice",
}

replicas := object.get(input.spec, "replicas", 1)

deny contains info if {
	replicas < 2
	info := {
		"message": sprintf("Deployment %s runs %d replica(s)", [input.metadata.name, replicas]),
		"attributes": [["spec", "replicas"]],
		"severity": "low",
	}
}
