package rules.arm_mysql_ssl_enforced_test

import data.rules.arm_mysql_ssl_enforced as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"sslEnforcement": "Enabled"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"sslEnforcement": "Disabled"}}
}
