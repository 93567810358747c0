package rules.k8s_run_as_non_root_test

import data.rules.k8s_run_as_non_root as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {"a.inherits": {"attributes": {"spec": {"template": {"spec": {
			"securityContext": {"runAsNonRoot": true},
			"containers": [{"name": "app"}, {"name": "override", "securityContext": {"runAsNonRoot": false}}],
		}}}}}},
		"Job": {"a.migrate": {"attributes": {"spec": {"template": {"spec": {"containers": [
			{"name": "uid", "securityContext": {"runAsUser": 1000}},
			{"name": "root", "securityContext": {"runAsUser": 0}},
			{"name": "unset"},
		]}}}}}},
	},
}

test_root_containers_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["a.inherits", "container[override]"], ["a.migrate", "container[root]"], ["a.migrate", "container[unset]"]}
}
