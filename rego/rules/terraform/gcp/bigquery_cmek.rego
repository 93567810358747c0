# BigQuery datasets encrypt new tables with a customer-managed key.
package rules.tf_gcp_bigquery_cmek

import rego.v1

resource_type := "google_bigquery_dataset"

input_type := "tf"

metadata := {
	"id": "RE-GCP-020",
	"title": "BigQuery datasets use a customer-managed default encryption key",
	"description": "A default Cloud KMS key for the dataset puts the tables created in it under a key the organisation controls, rotates and can revoke.",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "BigQuery",
	"severity": "low",
	"aliases": ["CKV_GCP_81"],
	"controls": ["CIS-GCP_v1.3.0_7.3"],
	"remediation": {"terraform": "Add default_encryption_configuration { kms_key_name = google_kms_crypto_key.x.id } to the dataset."},
	"references": ["https://cloud.google.com/bigquery/docs/customer-managed-encryption", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigquery_dataset#default_encryption_configuration"],
}

deny contains info if {
	not has_key
	info := {"message": "The dataset has no default customer-managed key."}
}

has_key if {
	some config in input.default_encryption_configuration
	object.get(config, "kms_key_name", "") != ""
}
