package rules.tf_gcp_kms_public_test

import data.rules.tf_gcp_kms_public as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"google_kms_crypto_key_iam_binding": {"google_kms_crypto_key_iam_binding.open": {"attributes": {"role": "roles/cloudkms.cryptoKeyDecrypter", "members": ["allUsers"]}}},
	"google_kms_key_ring_iam_member": {"google_kms_key_ring_iam_member.team": {"attributes": {"role": "roles/cloudkms.viewer", "member": "group:ops@example.com"}}},
}}

test_public_grants_fail if {
	{i.resource._id | some i in rule.deny} == {"google_kms_crypto_key_iam_binding.open"} with input as state
}
