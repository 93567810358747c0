# Cloud Storage buckets use uniform bucket-level access.
package rules.tf_gcp_storage_uniform_access

import rego.v1

resource_type := "google_storage_bucket"

input_type := "tf"

metadata := {
	"id": "RE-GCP-014",
	"title": "Cloud Storage buckets have uniform bucket-level access",
	"description": "With fine-grained access, each object can carry its own ACL, which bucket-level IAM reviews do not see; uniform bucket-level access makes IAM the only way in.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "Cloud Storage",
	"severity": "medium",
	"aliases": ["CKV_GCP_29"],
	"controls": ["CIS-GCP_v1.3.0_5.2"],
	"remediation": {"terraform": "Set uniform_bucket_level_access = true on the google_storage_bucket."},
	"references": ["https://cloud.google.com/storage/docs/uniform-bucket-level-access", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket#uniform_bucket_level_access"],
}

deny contains info if {
	object.get(input, "uniform_bucket_level_access", false) != true
	object.get(input, "bucket_policy_only", false) != true
	info := {"message": "uniform_bucket_level_access is not true.", "attributes": [["uniform_bucket_level_access"]]}
}
