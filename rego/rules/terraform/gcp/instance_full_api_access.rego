# Instances running as the default account do not have full API access.
package rules.tf_gcp_instance_full_api_access

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-005",
	"title": "Instances using the default service account do not have full API access",
	"description": "The cloud-platform scope lets the default service account (an Editor of the project) call every Google Cloud API from the instance.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "Compute Engine",
	"severity": "high",
	"aliases": ["CKV_GCP_41"],
	"controls": ["CIS-GCP_v1.3.0_4.2"],
	"remediation": {"terraform": "Run the instance as a dedicated service account, or list only the scopes it needs instead of cloud-platform."},
	"references": ["https://cloud.google.com/compute/docs/access/service-accounts#scopes_best_practice", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#scopes"],
}

full_scopes := {"cloud-platform", "https://www.googleapis.com/auth/cloud-platform"}

deny contains info if {
	some i, account in input.service_account
	gcp.default_service_account(account)
	some scope in object.get(account, "scopes", [])
	scope in full_scopes
	info := {"message": "The default service account has the cloud-platform scope.", "attributes": [["service_account", i, "scopes"]]}
}
