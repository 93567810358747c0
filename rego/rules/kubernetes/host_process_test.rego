package rules.k8s_host_process_test

import data.rules.k8s_host_process as rule
import rego.v1

state := {"input_type": "k8s", "resources": {"Deployment": {"w": {"attributes": {"spec": {"template": {"spec": {
	"securityContext": {"windowsOptions": {"hostProcess": true}},
	"containers": [{"name": "inherits"}, {"name": "own", "securityContext": {"windowsOptions": {"hostProcess": false}}}],
}}}}}}}}

test_host_process_containers_fail if {
	{i.result_tag | some i in rule.deny} == {"container[inherits]"} with input as state
	count(rule.resources) == 2 with input as state
}
