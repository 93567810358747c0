package rules.k8s_selinux_test

import data.rules.k8s_selinux as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Pod": {"p": {"attributes": {"spec": {
	"securityContext": {"seLinuxOptions": {"type": "spc_t"}},
	"containers": [{"name": "inherits"}, {"name": "own", "securityContext": {"seLinuxOptions": {"type": "container_t"}}}, {"name": "user", "securityContext": {"seLinuxOptions": {"user": "system_u"}}}],
}}}}}}

test_custom_selinux_fails if {
	{i.message | some i in rule.deny} == {"Container inherits sets SELinux type.", "Container user sets SELinux user."} with input as state
}
