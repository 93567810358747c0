package rules.tf_azure_aks_rbac_test

import data.rules.tf_azure_aks_rbac as rule
import rego.v1

test_default_passes if {
	count(rule.deny) == 0 with input as {"name": "k8s"}
}

test_disabled_fails if {
	count(rule.deny) == 1 with input as {"role_based_access_control": [{"enabled": false}]}
	count(rule.deny) == 1 with input as {"role_based_access_control_enabled": false}
}
