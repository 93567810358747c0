package rules.tf_azure_auto_provisioning_test

import data.rules.tf_azure_auto_provisioning as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"auto_provision": "On"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"auto_provision": "Off"}
}
