package rules.tf_gcp_sql_flag_skip_show_database_test

import data.rules.tf_gcp_sql_flag_skip_show_database as rule
import rego.v1

instance(version, flags) := {"database_version": version, "settings": [{"database_flags": flags}]}

test_compliant_passes if {
	count(rule.deny) == 0 with input as instance("MYSQL_8_0", [{"name": "skip_show_database", "value": "on"}])
	count(rule.deny) == 0 with input as instance("POSTGRES_15", [])
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as instance("MYSQL_8_0", [{"name": "skip_show_database", "value": "off"}])
}
