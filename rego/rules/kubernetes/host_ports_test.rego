package rules.k8s_host_ports_test

import data.rules.k8s_host_ports as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Pod": {"p": {"attributes": {"spec": {"containers": [
	{"name": "web", "ports": [{"containerPort": 80, "hostPort": 8080}]},
	{"name": "api", "ports": [{"containerPort": 80}]},
]}}}}}}

test_host_ports_fail if {
	{[i.result_tag, i.attributes[0]] | some i in rule.deny} == {["container[web]", ["spec", "containers", 0, "ports", 0, "hostPort"]]} with input as state
}
