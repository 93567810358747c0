package rules.k8s_cluster_admin_binding_test

import data.rules.k8s_cluster_admin_binding as rule
import rego.v1

workload(name, account) := {"attributes": {
	"metadata": {"name": name, "namespace": "ops"},
	"spec": {"template": {"spec": {"serviceAccountName": account, "containers": []}}},
}}

binding(name, role_kind, role, account) := {"attributes": {
	"metadata": {"name": name},
	"roleRef": {"kind": role_kind, "name": role},
	"subjects": [{"kind": "ServiceAccount", "name": account, "namespace": "ops"}],
}}

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {
			"ops.deployer": workload("deployer", "deployer"),
			"ops.operator": workload("operator", "operator"),
			"ops.reader": workload("reader", "reader"),
		},
		"ServiceAccount": {
			"ops.deployer": {"attributes": {"metadata": {"name": "deployer", "namespace": "ops"}}},
			"ops.operator": {"attributes": {"metadata": {"name": "operator", "namespace": "ops"}}},
			"ops.reader": {"attributes": {"metadata": {"name": "reader", "namespace": "ops"}}},
		},
		"ClusterRoleBinding": {
			"deployer-admin": binding("deployer-admin", "ClusterRole", "cluster-admin", "deployer"),
			"operator-all": binding("operator-all", "ClusterRole", "everything", "operator"),
			"reader-view": binding("reader-view", "ClusterRole", "view", "reader"),
		},
		"ClusterRole": {"everything": {"attributes": {"metadata": {"name": "everything"}, "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]}}},
	},
}

test_all_powerful_bindings_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["ops.deployer", "ClusterRoleBinding[deployer-admin]"],
		["ops.operator", "ClusterRoleBinding[operator-all]"],
	}
	count(rule.resources) == 3 with input as state
}
