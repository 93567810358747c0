package rules.arm_web_app_ftps_test

import data.rules.arm_web_app_ftps as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"siteConfig": {"ftpsState": "Disabled"}}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"siteConfig": {"ftpsState": "AllAllowed"}}}
}
