# Cloud SQL instances require SSL.
package rules.tf_gcp_sql_require_ssl

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-015",
	"title": "Cloud SQL instances require SSL",
	"description": "An instance that does not require SSL accepts unencrypted client connections, which expose credentials and data on the network.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "high",
	"aliases": ["CKV_GCP_6"],
	"controls": ["CIS-GCP_v1.3.0_6.4"],
	"remediation": {"terraform": "Set settings.ip_configuration { ssl_mode = \"ENCRYPTED_ONLY\" } (require_ssl = true in older providers)."},
	"references": ["https://cloud.google.com/sql/docs/security", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance"],
}

ssl_modes := {"ENCRYPTED_ONLY", "TRUSTED_CLIENT_CERTIFICATE_REQUIRED"}

requires_ssl(config) if config.require_ssl == true

requires_ssl(config) if config.ssl_mode in ssl_modes

deny contains info if {
	not some_requires_ssl
	info := {"message": "The instance does not require SSL."}
}

some_requires_ssl if {
	some settings in input.settings
	some config in settings.ip_configuration
	requires_ssl(config)
}
