# Instances do not turn OS Login off.
package rules.tf_gcp_instance_enable_oslogin

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-007",
	"title": "Instances do not turn OS Login off",
	"description": "OS Login ties SSH access to IAM identities and their revocation; an instance whose metadata sets enable-oslogin to false falls back to unmanaged SSH keys.",
	"platform": ["Google Cloud"],
	"category": "Compute security",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_34"],
	"controls": ["CIS-GCP_v1.3.0_4.4"],
	"remediation": {"terraform": "Set metadata = { enable-oslogin = \"TRUE\" } on the instance (or remove the key)."},
	"references": ["https://cloud.google.com/compute/docs/metadata/predefined-metadata-keys", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#metadata"],
}

deny contains info if {
	gcp.metadata_false(input, "enable-oslogin")
	info := {"message": "Instance metadata enable-oslogin is not true.", "attributes": [["metadata", "enable-oslogin"]]}
}
