# Dataproc clusters encrypt their disks with a customer-managed key.
package rules.tf_gcp_dataproc_cmek

import rego.v1

resource_type := "google_dataproc_cluster"

input_type := "tf"

metadata := {
	"id": "RE-GCP-038",
	"title": "Dataproc clusters use a customer-managed encryption key",
	"description": "By default a Dataproc cluster's persistent disks are encrypted with Google-managed keys; a Cloud KMS key in cluster_config.encryption_config puts them under a key the organisation controls, rotates and can revoke.",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "Dataproc",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_1.17"],
	"remediation": {"terraform": "Add cluster_config { encryption_config { kms_key_name = google_kms_crypto_key.x.id } } and grant the Dataproc service agent Encrypter/Decrypter on the key."},
	"references": [
		"https://cloud.google.com/dataproc/docs/concepts/configuring-clusters/customer-managed-encryption",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dataproc_cluster#encryption_config",
	],
}

has_key if {
	some config in input.cluster_config
	some encryption in config.encryption_config
	is_string(encryption.kms_key_name)
	encryption.kms_key_name != ""
}

deny contains info if {
	not has_key
	info := {"message": "cluster_config.encryption_config.kms_key_name is not set.", "attributes": [["cluster_config"]]}
}
