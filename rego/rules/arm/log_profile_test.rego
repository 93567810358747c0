package rules.arm_log_profile_test

import data.rules.arm_log_profile as rule
import rego.v1

test_complete_profile_passes if {
	count(rule.deny) == 0 with input as {"properties": {"categories": ["Write", "Delete", "Action"], "retentionPolicy": {"enabled": true, "days": 365}}}
}

test_incomplete_profiles_fail if {
	tags := {i.result_tag | some i in rule.deny} with input as {"properties": {"categories": ["Write"], "retentionPolicy": {"enabled": true, "days": 90}}}
	tags == {"categories", "retentionPolicy"}
}
