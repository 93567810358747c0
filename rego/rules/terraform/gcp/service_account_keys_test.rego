package rules.tf_gcp_service_account_keys_test

import data.rules.tf_gcp_service_account_keys as rule
import rego.v1

test_every_user_managed_key_fails if {
	count(rule.deny) == 1 with input as {"service_account_id": "projects/p/serviceAccounts/ci@p.iam.gserviceaccount.com"}
	count(rule.deny) == 1 with input as {"public_key_type": "TYPE_X509_PEM_FILE"}
}
