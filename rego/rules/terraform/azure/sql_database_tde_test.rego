package rules.tf_azure_sql_database_tde_test

import data.rules.tf_azure_sql_database_tde as rule
import rego.v1

test_compliant_passes if {
	count(rule.deny) == 0 with input as {"name": "db"}
}

test_noncompliant_fails if {
	count(rule.deny) == 1 with input as {"transparent_data_encryption_enabled": false}
}
