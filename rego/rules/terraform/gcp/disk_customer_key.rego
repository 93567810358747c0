# Persistent disks are encrypted with a key the customer controls.
package rules.tf_gcp_disk_customer_key

import rego.v1

resource_type := "google_compute_disk"

input_type := "tf"

metadata := {
	"id": "RE-GCP-010",
	"title": "Persistent disks are encrypted with customer-supplied or customer-managed keys",
	"description": "Disks encrypted only with Google-managed keys can be read by anyone who can attach or snapshot them in the project; a customer-supplied (CSEK) or Cloud KMS key adds a separate control over the data.",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "Compute Engine",
	"severity": "low",
	"aliases": ["CKV_GCP_37"],
	"controls": ["CIS-GCP_v1.3.0_4.7"],
	"remediation": {"terraform": "Add disk_encryption_key { raw_key = ... } (or kms_key_self_link) to the google_compute_disk."},
	"references": ["https://cloud.google.com/compute/docs/disks/customer-supplied-encryption", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_disk#disk_encryption_key"],
}

key_fields := ["raw_key", "rsa_encrypted_key", "kms_key_self_link"]

encrypted if {
	some key in input.disk_encryption_key
	some field in key_fields
	object.get(key, field, "") != ""
}

deny contains info if {
	not encrypted
	info := {"message": "The disk has no customer-supplied or customer-managed key."}
}
