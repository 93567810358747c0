package rules.k8s_added_capabilities_test

import data.rules.k8s_added_capabilities as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Deployment": {"w": {"attributes": {"spec": {"template": {"spec": {"containers": [
	{"name": "admin", "securityContext": {"capabilities": {"add": ["NET_BIND_SERVICE", "SYS_ADMIN"]}}},
	{"name": "web", "securityContext": {"capabilities": {"add": ["CAP_CHOWN"]}}},
]}}}}}}}}

test_extra_capabilities_fail if {
	[i.message | some i in rule.deny] == ["Container admin adds SYS_ADMIN."] with input as state
}
