package rules.k8s_privilege_escalation_test

import data.rules.k8s_privilege_escalation as rule

state := {
	"input_type": "k8s",
	"resources": {"StatefulSet": {"db.pg": {"attributes": {"spec": {"template": {"spec": {"containers": [
		{"name": "pg", "securityContext": {"allowPrivilegeEscalation": false}},
		{"name": "exporter"},
	]}}}}}}},
}

test_containers_without_the_setting_fail {
	tags := {t | t := rule.deny[_].result_tag} with input as state
	tags == {"container[exporter]"}
	count(rule.resources) == 2 with input as state
}
