# Cloud SQL instances do not authorize every address.
package rules.tf_gcp_sql_open_authorized_network

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-016",
	"title": "Cloud SQL instances do not authorize every address",
	"description": "An authorized network of 0.0.0.0/0 lets any address on the internet connect to the instance's public IP.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "critical",
	"aliases": ["CKV_GCP_11"],
	"controls": ["CIS-GCP_v1.3.0_6.5"],
	"remediation": {"terraform": "Remove the 0.0.0.0/0 authorized network; list the client addresses, or connect through the Cloud SQL Auth Proxy or private IP."},
	"references": ["https://cloud.google.com/sql/docs/security", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance"],
}

deny contains info if {
	some i, settings in input.settings
	some j, config in settings.ip_configuration
	some k, network in config.authorized_networks
	network.value in {"0.0.0.0/0", "::/0"}
	info := {"message": "An authorized network admits every address.", "attributes": [["settings", i, "ip_configuration", j, "authorized_networks", k, "value"]]}
}
