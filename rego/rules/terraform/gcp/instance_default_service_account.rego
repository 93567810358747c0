# Instances do not run as the default compute service account.
package rules.tf_gcp_instance_default_service_account

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-004",
	"title": "Instances do not use the default compute service account",
	"description": "The Compute Engine default service account has the Editor role on the project by default; an instance running as it gives any code on the instance that reach. A service_account block without an email uses the default account.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_30"],
	"controls": ["CIS-GCP_v1.3.0_4.1"],
	"remediation": {"terraform": "Create a google_service_account with only the roles the workload needs and set service_account { email = google_service_account.x.email }."},
	"references": ["https://cloud.google.com/compute/docs/access/service-accounts#default_service_account", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#service_account"],
}

deny contains info if {
	some i, account in input.service_account
	gcp.default_service_account(account)
	info := {"message": "The instance runs as the default compute service account.", "attributes": [["service_account", i]]}
}
