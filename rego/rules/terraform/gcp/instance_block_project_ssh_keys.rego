# Instances block project-wide SSH keys.
package rules.tf_gcp_instance_block_project_ssh_keys

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-006",
	"title": "Instances block project-wide SSH keys",
	"description": "Project-wide SSH keys let everyone who holds one log in to every instance of the project; an instance should accept only its own keys (or OS Login).",
	"platform": ["Google Cloud"],
	"category": "Compute security",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_32"],
	"controls": ["CIS-GCP_v1.3.0_4.3"],
	"remediation": {"terraform": "Set metadata = { block-project-ssh-keys = \"true\" } on the instance."},
	"references": ["https://cloud.google.com/compute/docs/metadata/predefined-metadata-keys", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#metadata"],
}

deny contains info if {
	not gcp.metadata_true(input, "block-project-ssh-keys")
	info := {"message": "Instance metadata block-project-ssh-keys is not true.", "attributes": [["metadata", "block-project-ssh-keys"]]}
}
