package rules.tf_gcp_storage_public_access_test

import data.rules.tf_gcp_storage_public_access as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"google_storage_bucket_iam_binding": {
		"google_storage_bucket_iam_binding.public": {"attributes": {"role": "roles/storage.objectViewer", "members": ["user:a@example.com", "allUsers"]}},
		"google_storage_bucket_iam_binding.team": {"attributes": {"role": "roles/storage.objectViewer", "members": ["group:team@example.com"]}},
	},
	"google_storage_bucket_iam_member": {"google_storage_bucket_iam_member.any": {"attributes": {"role": "roles/storage.objectViewer", "member": "allAuthenticatedUsers"}}},
}}

test_public_grants_fail if {
	{i.resource._id | some i in rule.deny} == {"google_storage_bucket_iam_binding.public", "google_storage_bucket_iam_member.any"} with input as state
}
