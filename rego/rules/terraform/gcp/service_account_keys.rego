# Service accounts use Google-managed keys only.
package rules.tf_gcp_service_account_keys

import rego.v1

resource_type := "google_service_account_key"

input_type := "tf"

metadata := {
	"id": "RE-GCP-035",
	"title": "Service accounts have no user-managed keys",
	"description": "A user-managed service account key is a long-lived credential that works from anywhere until someone deletes it; Google-managed keys, used through attached service accounts, workload identity or impersonation, never leave Google. Every google_service_account_key in the configuration is a user-managed key.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "medium",
	"controls": ["CIS-GCP_v1.3.0_1.4"],
	"remediation": {"terraform": "Remove the google_service_account_key; attach the service account to the workload, or use workload identity federation or service account impersonation instead."},
	"references": [
		"https://cloud.google.com/iam/docs/best-practices-for-managing-service-account-keys",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_service_account_key",
	],
}

# Every key of this type is user-managed, whatever its attributes (an
# unresolved service_account_id included).
deny contains {"message": "The configuration creates a user-managed key for a service account."}
