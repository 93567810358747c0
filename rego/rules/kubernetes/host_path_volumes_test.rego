package rules.k8s_host_path_volumes_test

import data.rules.k8s_host_path_volumes as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"DaemonSet": {"agent": {"attributes": {"spec": {"template": {"spec": {
	"volumes": [{"name": "docker", "hostPath": {"path": "/var/run/docker.sock"}}, {"name": "tmp", "emptyDir": {}}],
	"containers": [{"name": "a"}],
}}}}}}}}

test_host_path_volumes_fail if {
	{[i.result_tag, i.attributes[0]] | some i in rule.deny} == {["volume[docker]", ["spec", "template", "spec", "volumes", 0, "hostPath"]]} with input as state
}
