# Cloud SQL for SQL Server keeps remote access off.
package rules.tf_gcp_sql_flag_remote_access

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-033",
	"title": "Cloud SQL for SQL Server keeps remote access off",
	"description": "remote access lets stored procedures be run from and on other servers, which can be abused to launch attacks from the instance.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.3.5"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"remote access\", value = \"off\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/sqlserver/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "remote access"

values := {lower(f.value) |
	some settings in input.settings
	some f in object.get(settings, "database_flags", [])
	f.name == flag
}

applies if startswith(object.get(input, "database_version", ""), "SQLSERVER")

deny contains info if {
	applies
	some value in values
	value != "off"
	info := {"message": sprintf("Database flag %s is %v.", [flag, value])}
}
