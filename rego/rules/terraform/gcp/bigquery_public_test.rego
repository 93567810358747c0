package rules.tf_gcp_bigquery_public_test

import data.rules.tf_gcp_bigquery_public as rule
import rego.v1

state := {"input_type": "tf_hcl", "resources": {
	"google_bigquery_dataset": {
		"google_bigquery_dataset.public": {"attributes": {"access": [{"role": "READER", "special_group": "allAuthenticatedUsers"}]}},
		"google_bigquery_dataset.team": {"attributes": {"access": [{"role": "READER", "group_by_email": "team@example.com"}]}},
	},
	"google_bigquery_dataset_iam_member": {"google_bigquery_dataset_iam_member.any": {"attributes": {"role": "roles/bigquery.dataViewer", "member": "allUsers"}}},
}}

test_public_datasets_fail if {
	{i.resource._id | some i in rule.deny} == {"google_bigquery_dataset.public", "google_bigquery_dataset_iam_member.any"} with input as state
}
