package rules.k8s_drop_all_capabilities_test

import data.rules.k8s_drop_all_capabilities as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Pod": {"p": {"attributes": {"spec": {"containers": [
	{"name": "good", "securityContext": {"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}}},
	{"name": "keeps", "securityContext": {"capabilities": {"drop": ["NET_RAW"]}}},
	{"name": "adds", "securityContext": {"capabilities": {"drop": ["all"], "add": ["SYS_TIME"]}}},
]}}}}}}

test_containers_keeping_or_adding_capabilities_fail if {
	{i.result_tag | some i in rule.deny} == {"container[keeps]", "container[adds]"} with input as state
}
