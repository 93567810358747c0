package rules.k8s_service_account_token_test

import data.rules.k8s_service_account_token as rule
import rego.v1

pod_spec(extra) := object.union({"containers": [{"name": "app"}]}, extra)

state := {
	"input_type": "k8s",
	"resources": {
		"Deployment": {
			"apps.opted-out": {"attributes": {"metadata": {"name": "opted-out", "namespace": "apps"}, "spec": {"template": {"spec": pod_spec({"automountServiceAccountToken": false})}}}},
			"apps.quiet-account": {"attributes": {"metadata": {"name": "quiet-account", "namespace": "apps"}, "spec": {"template": {"spec": pod_spec({"serviceAccountName": "quiet"})}}}},
			"apps.overrides-account": {"attributes": {"metadata": {"name": "overrides-account", "namespace": "apps"}, "spec": {"template": {"spec": pod_spec({"serviceAccountName": "quiet", "automountServiceAccountToken": true})}}}},
			"apps.default-account": {"attributes": {"metadata": {"name": "default-account", "namespace": "apps"}, "spec": {"template": {"spec": pod_spec({})}}}},
		},
		"ServiceAccount": {"apps.quiet": {"attributes": {"metadata": {"name": "quiet", "namespace": "apps"}, "automountServiceAccountToken": false}}},
	},
}

test_mounted_tokens_fail if {
	failures := {i.resource._id | some i in rule.deny} with input as state
	failures == {"apps.overrides-account", "apps.default-account"}
	count(rule.resources) == 4 with input as state
}
