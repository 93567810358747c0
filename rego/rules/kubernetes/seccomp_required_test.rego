package rules.k8s_seccomp_required_test

import data.rules.k8s_seccomp_required as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Deployment": {
	"pod_level": {"attributes": {"spec": {"template": {"spec": {"securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}, "containers": [{"name": "a"}]}}}}},
	"none": {"attributes": {"spec": {"template": {"spec": {"containers": [{"name": "b"}]}}}}},
}}}

test_unprofiled_containers_fail if {
	{[i.resource._id, i.result_tag] | some i in rule.deny} == {["none", "container[b]"]} with input as state
}
