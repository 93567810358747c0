# Instances use Confidential Computing.
package rules.tf_gcp_confidential_computing

import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-028",
	"title": "Instances have Confidential Computing enabled",
	"description": "Confidential VMs keep memory encrypted with keys the host cannot read, protecting data in use from the platform's operators and from other tenants.",
	"platform": ["Google Cloud"],
	"category": "Compute security",
	"service_group": "Compute Engine",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_4.11"],
	"remediation": {"terraform": "Add confidential_instance_config { enable_confidential_compute = true } on a machine type that supports it (N2D, C2D)."},
	"references": ["https://cloud.google.com/confidential-computing/confidential-vm/docs/confidential-vm-overview", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#confidential_instance_config"],
}

confidential if {
	some config in input.confidential_instance_config
	config.enable_confidential_compute == true
}

deny contains info if {
	not confidential
	info := {"message": "Confidential Computing is not enabled."}
}
