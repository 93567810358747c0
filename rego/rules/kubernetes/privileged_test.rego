package rules.k8s_privileged_test

import data.rules.k8s_privileged as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {"shop.web": {"attributes": {"metadata": {"name": "web"}, "spec": {"template": {"spec": {
			"initContainers": [{"name": "setup", "securityContext": {"privileged": true}}],
			"containers": [{"name": "app"}, {"name": "shipper", "securityContext": {"privileged": true}}],
		}}}}}},
		"Pod": {"shop.debug": {"attributes": {"metadata": {"name": "debug"}, "spec": {"containers": [{"name": "sh", "securityContext": {"privileged": false}}]}}}},
	},
}

test_privileged_containers_fail if {
	failures := {[i.resource._id, i.result_tag, i.attributes[0]] | some i in rule.deny} with input as state
	failures == {
		["shop.web", "container[setup]", ["spec", "template", "spec", "initContainers", 0, "securityContext", "privileged"]],
		["shop.web", "container[shipper]", ["spec", "template", "spec", "containers", 1, "securityContext", "privileged"]],
	}
}

test_every_container_has_a_result if {
	count(rule.resources) == 4 with input as state
}
