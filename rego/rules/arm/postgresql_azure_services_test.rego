package rules.arm_postgresql_azure_services_test

import data.rules.arm_postgresql_azure_services as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"startIpAddress": "203.0.113.4", "endIpAddress": "203.0.113.4"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"startIpAddress": "0.0.0.0", "endIpAddress": "0.0.0.0"}}
}
