package rules.k8s_resource_limits_test

import data.rules.k8s_resource_limits as rule

state := {
	"input_type": "k8s",
	"resources": {"DaemonSet": {"kube-system.agent": {"attributes": {"spec": {"template": {"spec": {"containers": [
		{"name": "full", "resources": {"limits": {"cpu": "200m", "memory": "128Mi"}}},
		{"name": "cpu-only", "resources": {"limits": {"cpu": "1"}}},
		{"name": "none"},
	]}}}}}}},
}

test_missing_limits_named {
	messages := {m | m := rule.deny[_].message} with input as state
	messages == {"Container cpu-only has no memory limit.", "Container none has no cpu or memory limit."}
}
