package rules.arm_web_app_https_only_test

import data.rules.arm_web_app_https_only as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"httpsOnly": true}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {}}
}
