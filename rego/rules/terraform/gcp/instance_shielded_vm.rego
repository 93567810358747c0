# Instances run as Shielded VMs.
package rules.tf_gcp_instance_shielded_vm

import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-011",
	"title": "Instances are Shielded VMs with vTPM and integrity monitoring",
	"description": "Shielded VM's virtual TPM and integrity monitoring detect boot-level and kernel-level tampering; an instance should state a shielded_instance_config that keeps both on.",
	"platform": ["Google Cloud"],
	"category": "Compute security",
	"service_group": "Compute Engine",
	"severity": "low",
	"aliases": ["CKV_GCP_39"],
	"controls": ["CIS-GCP_v1.3.0_4.8"],
	"remediation": {"terraform": "Add shielded_instance_config { enable_vtpm = true, enable_integrity_monitoring = true, enable_secure_boot = true } and use a Shielded VM image."},
	"references": ["https://cloud.google.com/compute/shielded-vm/docs/shielded-vm", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#shielded_instance_config"],
}

deny contains info if {
	count(object.get(input, "shielded_instance_config", [])) == 0
	info := {"message": "The instance has no shielded_instance_config."}
}

deny contains info if {
	some i, config in input.shielded_instance_config
	some key in ["enable_vtpm", "enable_integrity_monitoring"]
	config[key] == false
	info := {"message": sprintf("shielded_instance_config.%s is false.", [key]), "attributes": [["shielded_instance_config", i, key]]}
}
