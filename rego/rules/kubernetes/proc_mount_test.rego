package rules.k8s_proc_mount_test

import data.rules.k8s_proc_mount as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Job": {"j": {"attributes": {"spec": {"template": {"spec": {"containers": [
	{"name": "a", "securityContext": {"procMount": "Unmasked"}},
	{"name": "b", "securityContext": {"procMount": "Default"}},
]}}}}}}}}

test_unmasked_proc_fails if {
	{i.result_tag | some i in rule.deny} == {"container[a]"} with input as state
}
