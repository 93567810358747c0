package rules.k8s_host_namespaces_test

import data.rules.k8s_host_namespaces as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {
		"DaemonSet": {"kube-system.node-agent": {"attributes": {"spec": {"template": {"spec": {"hostNetwork": true, "hostPID": true, "hostIPC": false}}}}}},
		"CronJob": {"ops.report": {"attributes": {"spec": {"jobTemplate": {"spec": {"template": {"spec": {"hostIPC": true}}}}}}}},
	},
}

test_host_namespaces_fail if {
	failures := {[i.resource._id, i.result_tag, i.attributes[0]] | some i in rule.deny} with input as state
	failures == {
		["kube-system.node-agent", "hostNetwork", ["spec", "template", "spec", "hostNetwork"]],
		["kube-system.node-agent", "hostPID", ["spec", "template", "spec", "hostPID"]],
		["ops.report", "hostIPC", ["spec", "jobTemplate", "spec", "template", "spec", "hostIPC"]],
	}
	count(rule.resources) == 6 with input as state
}
