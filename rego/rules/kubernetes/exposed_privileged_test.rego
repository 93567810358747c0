package rules.k8s_exposed_privileged_test

import data.rules.k8s_exposed_privileged as rule
import rego.v1

deployment(name, spec) := {"attributes": {
	"metadata": {"name": name, "namespace": "shop"},
	"spec": {"template": {"metadata": {"labels": {"app": name}}, "spec": spec}},
}}

service(name, type) := {"attributes": {"metadata": {"name": name, "namespace": "shop"}, "spec": {"type": type, "selector": {"app": name}}}}

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {
			"shop.web": deployment("web", {"containers": [{"name": "app"}, {"name": "shipper", "securityContext": {"privileged": true}}]}),
			"shop.lb": deployment("lb", {"hostNetwork": true, "containers": [{"name": "envoy"}]}),
			"shop.internal": deployment("internal", {"containers": [{"name": "x", "securityContext": {"privileged": true}}]}),
			"shop.safe": deployment("safe", {"containers": [{"name": "app"}]}),
		},
		"Service": {
			"shop.web": service("web", "ClusterIP"),
			"shop.lb": service("lb", "LoadBalancer"),
			"shop.internal": service("internal", "ClusterIP"),
			"shop.safe": service("safe", "NodePort"),
		},
		"Ingress": {"shop.front": {"attributes": {"metadata": {"name": "front", "namespace": "shop"}, "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [{"path": "/", "backend": {"service": {"name": "web"}}}]}}]}}}},
	},
}

test_exposed_privileged_workloads_fail if {
	failures := {[i.resource._id, i.result_tag, i.message] | some i in rule.deny} with input as state
	failures == {
		["shop.web", "service[web]", "The workload runs privileged container shipper and is exposed through Ingress front (shop.example.com/) via Service web."],
		["shop.lb", "service[lb]", "The workload uses the host network and is exposed through LoadBalancer Service lb."],
	}
}

test_every_selected_workload_has_a_result if {
	count(rule.resources) == 4 with input as state
}
