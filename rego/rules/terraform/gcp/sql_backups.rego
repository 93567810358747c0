# Cloud SQL instances have automated backups.
package rules.tf_gcp_sql_backups

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-018",
	"title": "Cloud SQL instances have automated backups",
	"description": "Automated backups (and point-in-time recovery built on them) are what restores a database after deletion, corruption or ransomware.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "medium",
	"aliases": ["CKV_GCP_14"],
	"controls": ["CIS-GCP_v1.3.0_6.7"],
	"remediation": {"terraform": "Set settings.backup_configuration { enabled = true }."},
	"references": ["https://cloud.google.com/sql/docs/security", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance"],
}

backed_up if {
	some settings in input.settings
	some backup in settings.backup_configuration
	backup.enabled == true
}

deny contains info if {
	not backed_up
	info := {"message": "Automated backups are not enabled."}
}
