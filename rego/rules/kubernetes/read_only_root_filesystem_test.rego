package rules.k8s_read_only_root_filesystem_test

import data.rules.k8s_read_only_root_filesystem as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {
		"CronJob": {"ops.backup": {"attributes": {"spec": {"jobTemplate": {"spec": {"template": {"spec": {
			"initContainers": [{"name": "prepare", "securityContext": {"readOnlyRootFilesystem": true}}],
			"containers": [{"name": "backup", "securityContext": {"readOnlyRootFilesystem": false}}],
		}}}}}}}},
		"Pod": {"default.debug": {"attributes": {"spec": {"containers": [{"name": "shell"}]}}}},
	},
}

test_writable_root_filesystems_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["ops.backup", "container[backup]"], ["default.debug", "container[shell]"]}
	count(rule.resources) == 3 with input as state
}
