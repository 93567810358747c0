# BigQuery tables are encrypted with a customer-managed key.
package rules.tf_gcp_bigquery_table_cmek

import rego.v1

resource_type := "google_bigquery_table"

input_type := "tf"

metadata := {
	"id": "RE-GCP-027",
	"title": "BigQuery tables use a customer-managed encryption key",
	"description": "A Cloud KMS key on the table puts its data under a key the organisation controls, rotates and can revoke.",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "BigQuery",
	"severity": "low",
	"aliases": ["CKV_GCP_80"],
	"controls": ["CIS-GCP_v1.3.0_7.2"],
	"remediation": {"terraform": "Add encryption_configuration { kms_key_name = google_kms_crypto_key.x.id } to the table (or a default key on its dataset)."},
	"references": ["https://cloud.google.com/bigquery/docs/customer-managed-encryption", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigquery_table#encryption_configuration"],
}

deny contains info if {
	not keyed
	info := {"message": "The table has no customer-managed key."}
}

keyed if {
	some config in input.encryption_configuration
	object.get(config, "kms_key_name", "") != ""
}
