package rules.tf_azure_defender_standard_tier_test

import data.rules.tf_azure_defender_standard_tier as rule
import rego.v1

test_standard_passes if {
	count(rule.deny) == 0 with input as {"tier": "Standard"}
}

test_free_fails if {
	count(rule.deny) == 1 with input as {"tier": "Free"}
}
