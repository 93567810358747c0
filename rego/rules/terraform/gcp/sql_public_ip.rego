# Cloud SQL instances have no public IP address.
package rules.tf_gcp_sql_public_ip

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-017",
	"title": "Cloud SQL instances have no public IP address",
	"description": "ipv4_enabled, on by default, gives the instance a public address; private IP (or the Auth Proxy over private networking) keeps it off the internet.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "medium",
	"aliases": ["CKV_GCP_60"],
	"controls": ["CIS-GCP_v1.3.0_6.6"],
	"remediation": {"terraform": "Set settings.ip_configuration { ipv4_enabled = false, private_network = ... }."},
	"references": ["https://cloud.google.com/sql/docs/security", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance"],
}

public if {
	some settings in input.settings
	not settings.ip_configuration
}

public if {
	some settings in input.settings
	some config in settings.ip_configuration
	object.get(config, "ipv4_enabled", true) != false
}

deny contains info if {
	public
	info := {"message": "The instance has a public IPv4 address."}
}
