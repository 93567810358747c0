package rules.k8s_literal_credentials_test

import data.rules.k8s_literal_credentials as rule
import rego.v1

state := {
	"input_type": "k8s",
	"resources": {"Job": {"ops.migrate": {"attributes": {"spec": {"template": {"spec": {"containers": [
		{"name": "from-secret", "env": [
			{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}},
			{"name": "DB_HOST", "value": "db.internal"},
			{"name": "TOKEN", "value": ""},
			{"name": "TOKEN_FILE", "value": "/var/run/secrets/token"},
		]},
		{"name": "inline", "env": [
			{"name": "db-password", "value": "hunter2"},
			{"name": "Stripe_Api_Key", "value": "sk_test_123"},
			{"name": "LOG_LEVEL", "value": "debug"},
		]},
	]}}}}}}},
}

test_literal_credentials_fail if {
	failures := {[i.result_tag, i.message] | some i in rule.deny} with input as state
	failures == {["container[inline]", "Container inline sets db-password, Stripe_Api_Key to a literal value."]}
	count(rule.resources) == 2 with input as state
}
