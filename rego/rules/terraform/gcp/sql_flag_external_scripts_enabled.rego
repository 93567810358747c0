# Cloud SQL for SQL Server keeps external scripts disabled.
package rules.tf_gcp_sql_flag_external_scripts_enabled

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-031",
	"title": "Cloud SQL for SQL Server keeps external scripts disabled",
	"description": "external scripts enabled lets queries run R and Python code on the instance, outside the database's own security model.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.3.1"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"external scripts enabled\", value = \"off\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/sqlserver/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "external scripts enabled"

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
