# Cloud KMS keys are not usable by everyone.
package rules.tf_gcp_kms_public

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-GCP-025",
	"title": "Cloud KMS keys are not accessible to allUsers or allAuthenticatedUsers",
	"description": "An IAM grant on a key (or key ring) to allUsers or allAuthenticatedUsers lets anyone use or manage it.",
	"platform": ["Google Cloud"],
	"category": "Key management",
	"service_group": "Cloud KMS",
	"severity": "critical",
	"controls": ["CIS-GCP_v1.3.0_1.9"],
	"remediation": {"terraform": "Remove allUsers and allAuthenticatedUsers from the key's and key ring's IAM members."},
	"references": ["https://cloud.google.com/kms/docs/iam", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_kms_crypto_key_iam"],
}

public_members := {"allUsers", "allAuthenticatedUsers"}

types := [
	"google_kms_crypto_key_iam_member", "google_kms_crypto_key_iam_binding",
	"google_kms_key_ring_iam_member", "google_kms_key_ring_iam_binding",
]

deny contains info if {
	some type in types
	some grant in snyk.resources(type)
	some member in array.concat([object.get(grant, "member", "")], object.get(grant, "members", []))
	member in public_members
	info := {"resource": grant, "message": sprintf("%s is granted %v.", [member, grant.role])}
}

resources contains {"resource": r} if {
	some type in types
	some r in snyk.resources(type)
}
