package rules.k8s_run_as_root_user_test

import data.rules.k8s_run_as_root_user as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"CronJob": {"c": {"attributes": {"spec": {"jobTemplate": {"spec": {"template": {"spec": {
	"securityContext": {"runAsUser": 0},
	"containers": [{"name": "inherits"}, {"name": "own", "securityContext": {"runAsUser": 1000}}],
}}}}}}}}}}

test_root_user_fails if {
	{i.result_tag | some i in rule.deny} == {"container[inherits]"} with input as state
}
