# VPC networks are custom mode.
package rules.tf_gcp_auto_mode_network

import rego.v1

resource_type := "google_compute_network"

input_type := "tf"

metadata := {
	"id": "RE-GCP-021",
	"title": "VPC networks do not create subnetworks automatically",
	"description": "An auto mode network (the shape of the default network) creates a subnetwork in every region with predictable ranges; with the default network's permissive firewall rules that exposes instances everywhere. Custom mode networks carry only the subnetworks declared.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_3.1"],
	"remediation": {"terraform": "Set auto_create_subnetworks = false and declare the google_compute_subnetwork resources the network needs."},
	"references": ["https://cloud.google.com/vpc/docs/vpc#subnet-ranges", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_network#auto_create_subnetworks"],
}

deny contains info if {
	object.get(input, "auto_create_subnetworks", true) != false
	info := {"message": "The network creates subnetworks automatically.", "attributes": [["auto_create_subnetworks"]]}
}
