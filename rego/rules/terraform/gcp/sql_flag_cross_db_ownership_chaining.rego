# Cloud SQL for SQL Server keeps cross-database ownership chaining off.
package rules.tf_gcp_sql_flag_cross_db_ownership_chaining

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-032",
	"title": "Cloud SQL for SQL Server keeps cross-database ownership chaining off",
	"description": "Cross-database ownership chaining lets objects in one database reach objects in another without permission checks on the second.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.3.2"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"cross db ownership chaining\", value = \"off\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/sqlserver/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "cross db ownership chaining"

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
