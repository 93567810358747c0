# Cloud SQL for MySQL sets local_infile off.
package rules.tf_gcp_sql_flag_local_infile

import rego.v1

resource_type := "google_sql_database_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-030",
	"title": "Cloud SQL for MySQL sets local_infile off",
	"description": "local_infile lets clients load files from their own machine, and a malicious server (or SQL injection) can abuse it to read client files.",
	"platform": ["Google Cloud"],
	"category": "Databases",
	"service_group": "Cloud SQL",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_6.1.3"],
	"remediation": {"terraform": "Add settings.database_flags { name = \"local_infile\", value = \"off\" } to the instance."},
	"references": ["https://cloud.google.com/sql/docs/mysql/flags", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance#database_flags"],
}

flag := "local_infile"

values := {lower(f.value) |
	some settings in input.settings
	some f in object.get(settings, "database_flags", [])
	f.name == flag
}

applies if startswith(object.get(input, "database_version", ""), "MYSQL")

deny contains info if {
	applies
	some value in values
	value != "off"
	info := {"message": sprintf("Database flag %s is %v.", [flag, value])}
}

deny contains info if {
	applies
	count(values) == 0
	info := {"message": sprintf("Database flag %s is not set to off.", [flag])}
}
