# Cloud SQL for SQL Server keeps contained database authentication off.
package rules.tf_gcp_sql_flag_contained_database_authentication

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-034",
	"title": "Cloud SQL for SQL Server keeps contained database authentication off",
	"description": "Contained database users authenticate inside the database, bypassing the server's login policies and auditing.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.3.7"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"contained database authentication\", value = \"off\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/sqlserver/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "contained database authentication"

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
