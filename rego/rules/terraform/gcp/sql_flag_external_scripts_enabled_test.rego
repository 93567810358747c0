package rules.tf_gcp_sql_flag_external_scripts_enabled_test

import data.rules.tf_gcp_sql_flag_external_scripts_enabled as rule
import rego.v1

instance(version, flags) := {"database_version": version, "settings": [{"database_flags": flags}]}

test_compliant_passes if {
	count(rule.deny) == 0 with input as instance("SQLSERVER_8_0", [{"name": "external scripts enabled", "value": "off"}])
	count(rule.deny) == 0 with input as instance("MYSQL_8_0", [])
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as instance("SQLSERVER_8_0", [{"name": "external scripts enabled", "value": "on"}])
}
