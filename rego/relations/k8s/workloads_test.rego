package relations_test.k8s

import data.snyk
import rego.v1

deployment(ns, name, labels, sa) := {"attributes": {
	"kind": "Deployment",
	"metadata": {"name": name, "namespace": ns},
	"spec": {"template": {"metadata": {"labels": labels}, "spec": object.union({"containers": []}, sa)}},
}}

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {
			"shop.web": deployment("shop", "web", {"app": "web", "tier": "front"}, {"serviceAccountName": "web"}),
			"shop.api": deployment("shop", "api", {"app": "api", "tier": "back"}, {}),
			"other.web": deployment("other", "web", {"app": "web"}, {}),
		},
		"Pod": {"shop.debug": {"attributes": {"kind": "Pod", "metadata": {"name": "debug", "namespace": "shop", "labels": {"tier": "back"}}, "spec": {}}}},
		"CronJob": {"shop.report": {"attributes": {"kind": "CronJob", "metadata": {"name": "report", "namespace": "shop"}, "spec": {"jobTemplate": {"spec": {"template": {"metadata": {"labels": {"app": "api"}}, "spec": {}}}}}}}},
		"Service": {
			"shop.web": {"attributes": {"metadata": {"name": "web", "namespace": "shop"}, "spec": {"selector": {"app": "web"}}}},
			"shop.back": {"attributes": {"metadata": {"name": "back", "namespace": "shop"}, "spec": {"selector": {"tier": "back", "app": "api"}}}},
			"shop.external": {"attributes": {"metadata": {"name": "external", "namespace": "shop"}, "spec": {"type": "ExternalName"}}},
		},
		"Ingress": {"shop.front": {"attributes": {"metadata": {"name": "front", "namespace": "shop"}, "spec": {
			"defaultBackend": {"service": {"name": "back"}},
			"rules": [{"host": "shop.example.com", "http": {"paths": [{"path": "/", "backend": {"service": {"name": "web"}}}]}}],
		}}}},
		"NetworkPolicy": {
			"shop.deny-all": {"attributes": {"metadata": {"name": "deny-all", "namespace": "shop"}, "spec": {"podSelector": {}}}},
			"shop.web": {"attributes": {"metadata": {"name": "web", "namespace": "shop"}, "spec": {"podSelector": {"matchLabels": {"app": "web"}}}}},
			"shop.expr": {"attributes": {"metadata": {"name": "expr", "namespace": "shop"}, "spec": {"podSelector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]}}}},
		},
		"ServiceAccount": {
			"shop.web": {"attributes": {"metadata": {"name": "web", "namespace": "shop"}}},
			"shop.default": {"attributes": {"metadata": {"name": "default", "namespace": "shop"}}},
		},
		"ClusterRoleBinding": {"web-admin": {"attributes": {
			"metadata": {"name": "web-admin"},
			"roleRef": {"kind": "ClusterRole", "name": "admin-all"},
			"subjects": [{"kind": "ServiceAccount", "name": "web", "namespace": "shop"}],
		}}},
		"RoleBinding": {"shop.read": {"attributes": {
			"metadata": {"name": "read", "namespace": "shop"},
			"roleRef": {"kind": "Role", "name": "reader"},
			"subjects": [{"kind": "ServiceAccount", "name": "default"}, {"kind": "User", "name": "alice"}],
		}}},
		"ClusterRole": {"admin-all": {"attributes": {"metadata": {"name": "admin-all"}, "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]}}},
		"Role": {"shop.reader": {"attributes": {"metadata": {"name": "reader", "namespace": "shop"}, "rules": []}}},
	},
}

related(type, id, name) := {[r._type, r._id] |
	some x in snyk.resources(type)
	x._id == id
	some r in snyk.relates(x, name)
}

test_service_selects_workloads_in_its_namespace if {
	related("Service", "shop.web", "Service.selector") == {["Deployment", "shop.web"]} with input as state
	related("Service", "shop.back", "Service.selector") == {["Deployment", "shop.api"]} with input as state
	related("Service", "shop.external", "Service.selector") == set() with input as state
}

test_network_policy_selects_pods if {
	related("NetworkPolicy", "shop.deny-all", "NetworkPolicy.podSelector") == {
		["Deployment", "shop.web"], ["Deployment", "shop.api"], ["Pod", "shop.debug"], ["CronJob", "shop.report"],
	} with input as state
	related("NetworkPolicy", "shop.web", "NetworkPolicy.podSelector") == {["Deployment", "shop.web"]} with input as state
	related("NetworkPolicy", "shop.expr", "NetworkPolicy.podSelector") == set() with input as state
}

test_ingress_backends_annotated if {
	pairs := {[s._id, ann] |
		some i in snyk.resources("Ingress")
		some [s, ann] in snyk.relates_with(i, "Ingress.backend")
	} with input as state
	pairs == {["shop.back", {"host": "*", "path": "*"}], ["shop.web", {"host": "shop.example.com", "path": "/"}]}
}

test_service_accounts_and_bindings if {
	related("ServiceAccount", "shop.web", "ServiceAccount") == {["Deployment", "shop.web"]} with input as state
	related("ServiceAccount", "shop.default", "ServiceAccount") == {["Deployment", "shop.api"], ["Pod", "shop.debug"], ["CronJob", "shop.report"]} with input as state
	related("ClusterRoleBinding", "web-admin", "RoleBinding.subjects") == {["ServiceAccount", "shop.web"]} with input as state
	related("RoleBinding", "shop.read", "RoleBinding.subjects") == {["ServiceAccount", "shop.default"]} with input as state
	related("ClusterRoleBinding", "web-admin", "RoleBinding.roleRef") == {["ClusterRole", "admin-all"]} with input as state
	related("RoleBinding", "shop.read", "RoleBinding.roleRef") == {["Role", "shop.reader"]} with input as state
}
