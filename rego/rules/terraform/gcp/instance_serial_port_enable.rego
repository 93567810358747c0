# Instances do not enable the interactive serial console.
package rules.tf_gcp_instance_serial_port_enable

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-008",
	"title": "Instances do not enable the interactive serial console",
	"description": "The interactive serial console accepts connections from any address and bypasses the instance's firewall rules.",
	"platform": ["Google Cloud"],
	"category": "Compute security",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_35"],
	"controls": ["CIS-GCP_v1.3.0_4.5"],
	"remediation": {"terraform": "Set metadata = { serial-port-enable = \"false\" } on the instance (or remove the key)."},
	"references": ["https://cloud.google.com/compute/docs/metadata/predefined-metadata-keys", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#metadata"],
}

deny contains info if {
	gcp.metadata_true(input, "serial-port-enable")
	info := {"message": "Instance metadata serial-port-enable is not false.", "attributes": [["metadata", "serial-port-enable"]]}
}
