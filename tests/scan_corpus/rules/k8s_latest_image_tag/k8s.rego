# Multi-resource rule, Rego v0 with `import future.keywords.in`: Deployments
# and Pods together (array.concat), one result per container (result_tag).
package rules.k8s_latest_image_tag

import data.snyk
import future.keywords.in

resource_type := "MULTIPLE"

input_type := "k8s"

metadata := {
	"id": "SNYK-CC-K8S-42",
	"title": "Container image uses the latest tag",
	"description": "Images without a tag, or tagged latest, change under you and make rollouts unreproducible.",
	"platform": ["Kubernetes"],
	"remediation": {"kubernetes": "Pin the image to a version tag or, better, a digest (`image@sha256:...`)."},
	"references": "https://kubernetes.io/docs/concepts/containers/images/#image-names",
	"category": "Compute",
	"service_group": "Workloads",
	"severity": "low",
}

workloads := array.concat(
	[w |
		some r in snyk.resources("Deployment")
		w := {"resource": r, "path": ["spec", "template", "spec", "containers"], "containers": r.spec.template.spec.containers}
	],
	[w |
		some r in snyk.resources("Pod")
		w := {"resource": r, "path": ["spec", "containers"], "containers": r.spec.containers}
	],
)

last_segment(image) = s {
	parts := split(image, "/")
	s := parts[count(parts) - 1]
}

# Digest-pinned images have no effective tag.
image_tag(image) = tag {
	not contains(image, "@")
	contains(last_segment(image), ":")
	tag := split(last_segment(image), ":")[1]
}

image_tag(image) = "latest" {
	not contains(image, "@")
	not contains(last_segment(image), ":")
}

deny[info] {
	some w in workloads
	some i, c in w.containers
	image_tag(c.image) == "latest"
	info := {
		"resource": w.resource,
		"result_tag": c.name,
		"message": sprintf("Container %q uses image %q, which resolves to the mutable latest tag", [c.name, c.image]),
		"attributes": [array.concat(w.path, [i, "image"])],
	}
}

resources[info] {
	some w in workloads
	some c in w.containers
	info := {"resource": w.resource, "result_tag": c.name}
}
