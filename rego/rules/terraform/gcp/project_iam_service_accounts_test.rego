package rules.tf_gcp_project_iam_service_accounts_test

import data.rules.tf_gcp_project_iam_service_accounts as rule
import rego.v1

state := {
	"input_type": "tf",
	"resources": {
		"google_project_iam_member": {
			"google_project_iam_member.logs": {"attributes": {"role": "roles/logging.logWriter", "member": "serviceAccount:app@p.iam.gserviceaccount.com"}},
			"google_project_iam_member.ci_owner": {"attributes": {"role": "roles/owner", "member": "serviceAccount:ci@p.iam.gserviceaccount.com"}},
			"google_project_iam_member.ops_admin": {"attributes": {"role": "roles/compute.admin", "member": "group:ops@example.com"}},
		},
		"google_project_iam_binding": {
			"google_project_iam_binding.impersonators": {"attributes": {"role": "roles/iam.serviceAccountUser", "members": ["user:dev@example.com"]}},
			"google_project_iam_binding.storage": {"attributes": {"role": "roles/storage.admin", "members": ["user:dev@example.com", "serviceAccount:etl@p.iam.gserviceaccount.com"]}},
		},
	},
}

test_over_grants_fail if {
	failures := {[i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["google_project_iam_member.ci_owner", "admin[serviceAccount:ci@p.iam.gserviceaccount.com]"],
		["google_project_iam_binding.impersonators", "impersonation"],
		["google_project_iam_binding.storage", "admin[serviceAccount:etl@p.iam.gserviceaccount.com]"],
	}
	count(rule.resources) == 5 with input as state
}
