package rules.tf_aws_rds_minor_upgrades_test

import data.rules.tf_aws_rds_minor_upgrades as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"engine": "postgres"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"auto_minor_version_upgrade": false}
}
