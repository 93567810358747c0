package rules.tf_gcp_sql_backups_test

import data.rules.tf_gcp_sql_backups as rule
import rego.v1

test_configured_instance_passes if {
	count(rule.deny) == 0 with input as {"settings": [{"backup_configuration": [{"enabled": true}]}]}
}

test_misconfigured_instance_fails if {
	count(rule.deny) == 1 with input as {"settings": [{"backup_configuration": [{"enabled": false}]}]}
}
