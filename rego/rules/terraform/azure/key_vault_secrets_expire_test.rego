package rules.tf_azure_key_vault_secrets_expire_test

import data.rules.tf_azure_key_vault_secrets_expire as rule
import rego.v1

test_expiring_passes if {
	count(rule.deny) == 0 with input as {"expiration_date": "2027-01-01T00:00:00Z"}
}

test_unset_fails if {
	count(rule.deny) == 1 with input as {"name": "k"}
}
