package rules.k8s_volume_types_test

import data.rules.k8s_volume_types as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Pod": {"p": {"attributes": {"spec": {
	"volumes": [{"name": "nfs", "nfs": {"server": "s", "path": "/"}}, {"name": "cfg", "configMap": {"name": "c"}}],
	"containers": [{"name": "a"}],
}}}}}}

test_other_volume_types_fail if {
	{i.message | some i in rule.deny} == {"Volume nfs is of type nfs."} with input as state
}
