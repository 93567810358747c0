package rules.arm_sql_database_tde_test

import data.rules.arm_sql_database_tde as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"state": "Enabled"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"state": "Disabled"}}
	count(rule.deny) == 1 with input as {"properties": {"status": "Disabled"}}
}
