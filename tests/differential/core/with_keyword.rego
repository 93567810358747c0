package diff.core.with_keyword

import rego.v1

deny contains msg if {
	input.kind == "Pod"
	some c in input.spec.containers
	c.securityContext.privileged
	msg := concat("", ["privileged container ", c.name])
}

pod_fixture := {"kind": "Pod", "spec": {"containers": [
	{"name": "app", "securityContext": {"privileged": true}},
	{"name": "sidecar"},
]}}

with_input := v if v := deny with input as pod_fixture
with_input_patch := v if v := deny with input.kind as "Deployment"
threshold := data.settings.threshold
with_data := v if v := threshold with data.settings.threshold as 42
count_with := v if v := count(deny) with input as {"kind": "Pod", "spec": {"containers": []}}
mocked_builtin := v if v := concat("-", ["a", "b"]) with concat as fake_concat
fake_concat(_, _) := "mocked"
