# Container images are pinned to a version tag or digest (Rego v0).
package rules.k8s_image_tag

import data.shipped_lib.k8s
import data.snyk

input_type := "k8s"

metadata := {
	"id": "RE-K8S-006",
	"title": "Container images are pinned to a tag or digest",
	"description": "An image without a tag, or tagged latest, resolves to whatever was pushed last: deployments stop being reproducible and a compromised push is picked up on the next restart. Pin a version tag, or better a digest.",
	"platform": ["Kubernetes"],
	"category": "Supply chain",
	"service_group": "Pods",
	"severity": "low",
	"remediation": {"kubernetes": "Reference images as name:version or name@sha256:digest, never without a tag or with :latest."},
	"references": ["https://kubernetes.io/docs/concepts/containers/images/#image-names"],
}

# The tag of an image reference: what follows the last ':' after the last '/'
# (a registry port is not a tag); none when pinned by digest.
image_tag(image) = tag {
	not contains(image, "@")
	parts := split(image, "/")
	last := parts[count(parts) - 1]
	contains(last, ":")
	tag := split(last, ":")[1]
}

unpinned(image) {
	not contains(image, "@")
	not image_tag(image)
}

unpinned(image) {
	image_tag(image) == "latest"
}

deny[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	[c, path] := k8s.containers(w)[_]
	unpinned(c.image)
	info := {
		"resource": w,
		"result_tag": k8s.container_tag(c),
		"message": sprintf("Container %s uses image %s, which is not pinned to a version.", [c.name, c.image]),
		"attributes": [array.concat(path, ["image"])],
	}
}

resources[info] {
	w := snyk.resources(k8s.workload_kinds[_])[_]
	[c, _] := k8s.containers(w)[_]
	info := {"resource": w, "result_tag": k8s.container_tag(c)}
}
