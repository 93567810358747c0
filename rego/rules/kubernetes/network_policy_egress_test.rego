package rules.k8s_network_policy_egress_test

import data.rules.k8s_network_policy_egress as rule
import rego.v1

pod(ns, name) := {"attributes": {"metadata": {"name": name, "namespace": ns, "labels": {"app": name}}, "spec": {}}}

policy(ns, name, spec) := {"attributes": {"metadata": {"name": name, "namespace": ns}, "spec": spec}}

state := {
	"input_type": "k8s",
	"resources": {
		"Pod": {
			"shop.web": pod("shop", "web"),
			"shop.api": pod("shop", "api"),
			"billing.api": pod("billing", "api"),
			"ops.tool": pod("ops", "tool"),
		},
		"NetworkPolicy": {
			"shop.web-in": policy("shop", "web-in", {"podSelector": {"matchLabels": {"app": "web"}}, "ingress": [{}]}),
			"shop.api-out": policy("shop", "api-out", {"podSelector": {"matchLabels": {"app": "api"}}, "egress": [{"to": [{"podSelector": {}}]}]}),
			"billing.default-deny": policy("billing", "default-deny", {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}),
		},
	},
}

test_workloads_with_open_egress_fail if {
	denied := {i.resource._id | some i in rule.deny} with input as state
	denied == {"shop.web", "ops.tool"}
}
