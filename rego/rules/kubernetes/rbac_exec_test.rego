package rules.k8s_rbac_exec_test

import data.rules.k8s_rbac_exec as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {
		"Role": {
			"ops.viewer": {"attributes": {"metadata": {"name": "viewer"}, "rules": [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list"]}]}},
			"ops.debugger": {"attributes": {"metadata": {"name": "debugger"}, "rules": [
				{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]},
				{"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["create"]},
			]}},
		},
		"ClusterRole": {
			"everything": {"attributes": {"metadata": {"name": "everything"}, "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]}},
			"deployments": {"attributes": {"metadata": {"name": "deployments"}, "rules": [{"apiGroups": ["apps"], "resources": ["*"], "verbs": ["*"]}]}},
		},
	},
}

test_roles_granting_exec_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["ops.debugger", "rules[1]"], ["everything", "rules[0]"]}
	count(rule.resources) == 4 with input as state
}
