package rules.k8s_apparmor_test

import data.rules.k8s_apparmor as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Deployment": {"w": {"attributes": {"spec": {"template": {
	"metadata": {"annotations": {"container.apparmor.security.beta.kubernetes.io/legacy": "unconfined"}},
	"spec": {"containers": [
		{"name": "legacy"},
		{"name": "field", "securityContext": {"appArmorProfile": {"type": "Unconfined"}}},
		{"name": "fine", "securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}}},
	]},
}}}}}}}

test_unconfined_containers_fail if {
	{i.result_tag | some i in rule.deny} == {"container[legacy]", "container[field]"} with input as state
}
