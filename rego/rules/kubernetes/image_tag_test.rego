package rules.k8s_image_tag_test

import data.rules.k8s_image_tag as rule

state := {
	"input_type": "k8s",
	"resources": {"Pod": {"default.mixed": {"attributes": {"spec": {"containers": [
		{"name": "tagged", "image": "nginx:1.27"},
		{"name": "digest", "image": "ghcr.io/acme/api@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{"name": "latest", "image": "redis:latest"},
		{"name": "bare", "image": "busybox"},
		{"name": "port", "image": "registry.local:5000/tools/jq"},
		{"name": "port-tagged", "image": "registry.local:5000/tools/jq:1.7"},
	]}}}}},
}

test_unpinned_images_fail {
	tags := {t | t := rule.deny[_].result_tag} with input as state
	tags == {"container[latest]", "container[bare]", "container[port]"}
}
