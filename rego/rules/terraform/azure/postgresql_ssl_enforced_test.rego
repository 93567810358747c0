package rules.tf_azure_postgresql_ssl_enforced_test

import data.rules.tf_azure_postgresql_ssl_enforced as rule
import rego.v1

test_enforced_passes if {
	count(rule.deny) == 0 with input as {"ssl_enforcement_enabled": true}
}

test_not_enforced_fails if {
	count(rule.deny) == 1 with input as {"ssl_enforcement_enabled": false}
	count(rule.deny) == 1 with input as {"ssl_enforcement": "Disabled"}
}
