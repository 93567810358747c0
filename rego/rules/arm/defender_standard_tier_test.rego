package rules.arm_defender_standard_tier_test

import data.rules.arm_defender_standard_tier as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"properties": {"pricingTier": "Standard"}}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"properties": {"pricingTier": "Free"}}
}
