package rules.k8s_network_policy_test

import data.rules.k8s_network_policy as rule

pod(ns, name, labels) := {"attributes": {"metadata": {"name": name, "namespace": ns, "labels": labels}, "spec": {}}}

state := {
	"input_type": "k8s",
	"resources": {
		"Pod": {
			"shop.web": pod("shop", "web", {"app": "web"}),
			"shop.api": pod("shop", "api", {"app": "api"}),
			"billing.api": pod("billing", "api", {"app": "api"}),
		},
		"NetworkPolicy": {
			"shop.web": {"attributes": {"metadata": {"name": "web", "namespace": "shop"}, "spec": {"podSelector": {"matchLabels": {"app": "web"}}}}},
			"billing.default-deny": {"attributes": {"metadata": {"name": "default-deny", "namespace": "billing"}, "spec": {"podSelector": {}}}},
		},
	},
}

test_uncovered_workloads_fail {
	denied := {id | id := rule.deny[_].resource._id} with input as state
	denied == {"shop.api"}
}
