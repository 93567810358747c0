# Cloud KMS keys rotate within 90 days.
package rules.tf_gcp_kms_rotation

import rego.v1

resource_type := "google_kms_crypto_key"

input_type := "tf"

metadata := {
	"id": "RE-GCP-024",
	"title": "Cloud KMS keys rotate at least every 90 days",
	"description": "Regular rotation limits how much data one key version protects and how long a leaked version is useful. rotation_period is a duration in seconds (\"7776000s\" is 90 days).",
	"platform": ["Google Cloud"],
	"category": "Key management",
	"service_group": "Cloud KMS",
	"severity": "medium",
	"aliases": ["CKV_GCP_43"],
	"controls": ["CIS-GCP_v1.3.0_1.10"],
	"remediation": {"terraform": "Set rotation_period = \"7776000s\" (or shorter) on the google_kms_crypto_key."},
	"references": ["https://cloud.google.com/kms/docs/key-rotation", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/kms_crypto_key#rotation_period"],
}

max_seconds := 7776000

deny contains info if {
	not input.rotation_period
	info := {"message": "The key has no rotation period."}
}

deny contains info if {
	seconds := to_number(trim_suffix(input.rotation_period, "s"))
	seconds > max_seconds
	info := {"message": sprintf("The key rotates every %v.", [input.rotation_period]), "attributes": [["rotation_period"]]}
}
