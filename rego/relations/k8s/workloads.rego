# Kubernetes: which workloads a Service or a NetworkPolicy selects, which
# Services an Ingress routes to, and which ServiceAccount a workload runs as
# and what it is bound to. Objects are keyed by [namespace, name] (namespace
# "default" when unset; "" for cluster-scoped kinds), as the loader keys them.
#
# Label selectors join by hashing too: a selector is the key
# [namespace, matchLabels]; a workload offers, for each distinct set of label
# names some selector uses, [namespace, its labels restricted to that set] when
# it has all of them. So a selector relates to exactly the workloads whose
# labels include it, without comparing every selector with every workload.
# Selectors with matchExpressions are not evaluated (those NetworkPolicies
# select nothing here).
package relations

import data.snyk
import rego.v1

# Workload kind → path of its pod template ([] for a Pod itself).
_k8s_pod_template_paths := {
	"Pod": [],
	"Deployment": ["spec", "template"],
	"StatefulSet": ["spec", "template"],
	"DaemonSet": ["spec", "template"],
	"ReplicaSet": ["spec", "template"],
	"ReplicationController": ["spec", "template"],
	"Job": ["spec", "template"],
	"CronJob": ["spec", "jobTemplate", "spec", "template"],
}

_k8s_namespace(obj) := object.get(obj, ["metadata", "namespace"], "default")

# [workload, namespace, pod labels, pod spec] for every workload of the input.
_k8s_workloads contains [w, _k8s_namespace(w), labels, spec] if {
	some kind, path in _k8s_pod_template_paths
	some w in snyk.resources(kind)
	labels := object.get(w, array.concat(path, ["metadata", "labels"]), {})
	spec := object.get(w, array.concat(path, ["spec"]), {})
}

# [workload, [namespace, labels restricted to names]] for every set of label
# names the workload carries in full.
_k8s_selection_keys(label_name_sets) := [[w, [ns, {k: labels[k] | some k in names}]] |
	some [w, ns, labels, _] in _k8s_workloads
	some names in label_name_sets
	every k in names {
		labels[k] != null
	}
]

# --- Service ↔ workloads by spec.selector ---------------------------------------

_k8s_service_selectors := [[s, s.spec.selector] |
	some s in snyk.resources("Service")
	is_object(s.spec.selector)
	count(s.spec.selector) > 0
]

relations contains {
	"name": "Service.selector",
	"keys": {
		"left": [[s, [_k8s_namespace(s), selector]] | some [s, selector] in _k8s_service_selectors],
		"right": _k8s_selection_keys({object.keys(selector) | some [_, selector] in _k8s_service_selectors}),
	},
}

# --- NetworkPolicy ↔ workloads by spec.podSelector --------------------------------

_k8s_policy_selectors := [[p, object.get(p, ["spec", "podSelector", "matchLabels"], {})] |
	some p in snyk.resources("NetworkPolicy")
	not p.spec.podSelector.matchExpressions
]

relations contains {
	"name": "NetworkPolicy.podSelector",
	"keys": {
		"left": [[p, [_k8s_namespace(p), selector]] | some [p, selector] in _k8s_policy_selectors],
		"right": _k8s_selection_keys({object.keys(selector) | some [_, selector] in _k8s_policy_selectors}),
	},
}

# --- Ingress → Services it routes to, annotated with host and path ---------------

_k8s_backend_service(backend) := backend.service.name # networking.k8s.io/v1

_k8s_backend_service(backend) := backend.serviceName # v1beta1

relations contains {
	"name": "Ingress.backend",
	"keys": {
		"left": array.concat(
			[[i, [_k8s_namespace(i), name], {"host": "*", "path": "*"}] |
				some i in snyk.resources("Ingress")
				some backend in [object.get(i, ["spec", "defaultBackend"], null), object.get(i, ["spec", "backend"], null)]
				name := _k8s_backend_service(backend)
			],
			[[i, [_k8s_namespace(i), name], {"host": object.get(rule, "host", "*"), "path": object.get(path, "path", "/")}] |
				some i in snyk.resources("Ingress")
				some rule in object.get(i, ["spec", "rules"], [])
				some path in object.get(rule, ["http", "paths"], [])
				name := _k8s_backend_service(path.backend)
			],
		),
		"right": [[s, [_k8s_namespace(s), s.metadata.name]] | some s in snyk.resources("Service")],
	},
}

# --- ServiceAccount → workloads running as it ------------------------------------

_k8s_service_account_name(spec) := spec.serviceAccountName

_k8s_service_account_name(spec) := spec.serviceAccount if not spec.serviceAccountName

_k8s_service_account_name(spec) := "default" if {
	not spec.serviceAccountName
	not spec.serviceAccount
}

relations contains {
	"name": "ServiceAccount",
	"keys": {
		"left": [[sa, [_k8s_namespace(sa), sa.metadata.name]] | some sa in snyk.resources("ServiceAccount")],
		"right": [[w, [ns, _k8s_service_account_name(spec)]] | some [w, ns, _, spec] in _k8s_workloads],
	},
}

# --- RoleBinding / ClusterRoleBinding → subjects and role ------------------------

# A binding's namespace: its own for a RoleBinding, "" for a ClusterRoleBinding.
_k8s_binding_kinds := {"RoleBinding": true, "ClusterRoleBinding": false}

_k8s_binding_namespace(b, true) := _k8s_namespace(b)

_k8s_binding_namespace(_, false) := ""

relations contains {
	"name": "RoleBinding.subjects",
	"keys": {
		"left": [[b, [object.get(subject, "namespace", _k8s_binding_namespace(b, namespaced)), subject.name]] |
			some kind, namespaced in _k8s_binding_kinds
			some b in snyk.resources(kind)
			some subject in object.get(b, "subjects", [])
			subject.kind == "ServiceAccount"
		],
		"right": [[sa, [_k8s_namespace(sa), sa.metadata.name]] | some sa in snyk.resources("ServiceAccount")],
	},
}

relations contains {
	"name": "RoleBinding.roleRef",
	"keys": {
		"left": [[b, [ns, b.roleRef.kind, b.roleRef.name]] |
			some kind, namespaced in _k8s_binding_kinds
			some b in snyk.resources(kind)
			ns := _k8s_role_namespace(b.roleRef.kind, _k8s_binding_namespace(b, namespaced))
		],
		"right": array.concat(
			[[r, [_k8s_namespace(r), "Role", r.metadata.name]] | some r in snyk.resources("Role")],
			[[r, ["", "ClusterRole", r.metadata.name]] | some r in snyk.resources("ClusterRole")],
		),
	},
}

_k8s_role_namespace("ClusterRole", _) := ""

_k8s_role_namespace("Role", ns) := ns
