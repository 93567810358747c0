package rules.cfn_rds_minor_upgrades_test

import data.rules.cfn_rds_minor_upgrades as rule
import rego.v1

test_default_and_enabled_pass if {
	count(rule.deny) == 0 with input as {"Engine": "postgres"}
	count(rule.deny) == 0 with input as {"AutoMinorVersionUpgrade": "true"}
}

test_disabled_fails if {
	count(rule.deny) == 1 with input as {"AutoMinorVersionUpgrade": false}
	count(rule.deny) == 1 with input as {"AutoMinorVersionUpgrade": "False"}
}
