package rules.arm_flow_log_retention_test

import data.rules.arm_flow_log_retention as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"retentionPolicy": {"enabled": true, "days": 90}}}
	count(rule.deny) == 0 with input as {"properties": {"retentionPolicy": {"enabled": true, "days": 0}}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"enabled": true}}
	count(rule.deny) == 1 with input as {"properties": {"retentionPolicy": {"enabled": true, "days": 30}}}
}
