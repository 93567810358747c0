package rules.tf_gcp_disk_customer_key_test

import data.rules.tf_gcp_disk_customer_key as rule
import rego.v1

test_customer_key_passes if {
	count(rule.deny) == 0 with input as {"disk_encryption_key": [{"kms_key_self_link": "projects/p/locations/l/keyRings/r/cryptoKeys/k"}]}
}

test_google_key_fails if {
	count(rule.deny) == 1 with input as {"name": "disk"}
}
