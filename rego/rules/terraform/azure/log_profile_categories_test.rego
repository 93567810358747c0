package rules.tf_azure_log_profile_categories_test

import data.rules.tf_azure_log_profile_categories as rule
import rego.v1

test_every_category_passes if {
	count(rule.deny) == 0 with input as {"categories": ["Write", "Delete", "Action"]}
}

test_missing_categories_fail if {
	[i.message | some i in rule.deny] == ["The profile leaves out Delete, Write."] with input as {"categories": ["Action"]}
}
