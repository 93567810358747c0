# Cloud SQL for MySQL sets skip_show_database on.
package rules.tf_gcp_sql_flag_skip_show_database

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-029",
	"title": "Cloud SQL for MySQL sets skip_show_database on",
	"description": "With skip_show_database off, every user can list every database on the instance, including ones it has no other rights on.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.1.2"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"skip_show_database\", value = \"on\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/mysql/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "skip_show_database"

values := {lower(f.value) |
	some settings in input.settings
	some f in object.get(settings, "database_flags", [])
	f.name == flag
}

applies if startswith(object.get(input, "database_version", ""), "MYSQL")

deny contains info if {
	applies
	some value in values
	value != "on"
	info := {"message": sprintf("Database flag %s is %v.", [flag, value])}
}

deny contains info if {
	applies
	count(values) == 0
	info := {"message": sprintf("Database flag %s is not set to on.", [flag])}
}
