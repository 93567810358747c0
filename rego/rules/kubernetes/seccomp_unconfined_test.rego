package rules.k8s_seccomp_unconfined_test

import data.rules.k8s_seccomp_unconfined as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Pod": {"p": {"attributes": {"spec": {
	"securityContext": {"seccompProfile": {"type": "Unconfined"}},
	"containers": [{"name": "inherits"}, {"name": "own", "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}],
}}}}}}

test_unconfined_seccomp_fails if {
	{i.result_tag | some i in rule.deny} == {"container[inherits]"} with input as state
}
