# BigQuery datasets are not readable by everyone.
package rules.tf_gcp_bigquery_public

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-GCP-019",
	"title": "BigQuery datasets are not publicly accessible",
	"description": "A dataset access entry (or IAM grant) for allUsers or allAuthenticatedUsers lets anyone on the internet, or anyone with a Google account, read its tables.",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "BigQuery",
	"severity": "critical",
	"aliases": ["CKV_GCP_15"],
	"controls": ["CIS-GCP_v1.3.0_7.1"],
	"remediation": {"terraform": "Remove access entries whose special_group (or iam_member) is allUsers or allAuthenticatedUsers."},
	"references": ["https://cloud.google.com/bigquery/docs/dataset-access-controls", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigquery_dataset#access"],
}

public_members := {"allUsers", "allAuthenticatedUsers"}

deny contains info if {
	some dataset in snyk.resources("google_bigquery_dataset")
	some i, access in dataset.access
	some field in ["special_group", "iam_member"]
	access[field] in public_members
	info := {"resource": dataset, "message": sprintf("%s has access to the dataset.", [access[field]]), "attributes": [["access", i, field]]}
}

deny contains info if {
	some type in ["google_bigquery_dataset_iam_member", "google_bigquery_dataset_iam_binding"]
	some grant in snyk.resources(type)
	some member in array.concat([object.get(grant, "member", "")], object.get(grant, "members", []))
	member in public_members
	info := {"resource": grant, "message": sprintf("%s is granted %v.", [member, grant.role])}
}

resources contains {"resource": r} if {
	some type in ["google_bigquery_dataset", "google_bigquery_dataset_iam_member", "google_bigquery_dataset_iam_binding"]
	some r in snyk.resources(type)
}
