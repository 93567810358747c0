package rules.k8s_unsafe_sysctls_test

import data.rules.k8s_unsafe_sysctls as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"StatefulSet": {"s": {"attributes": {"spec": {"template": {"spec": {
	"securityContext": {"sysctls": [{"name": "net.ipv4.tcp_syncookies", "value": "1"}, {"name": "kernel.msgmax", "value": "65536"}]},
	"containers": [{"name": "db"}],
}}}}}}}}

test_unsafe_sysctls_fail if {
	{i.result_tag | some i in rule.deny} == {"sysctl[kernel.msgmax]"} with input as state
}
