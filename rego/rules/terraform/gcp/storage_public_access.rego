# Cloud Storage buckets are not readable by everyone.
package rules.tf_gcp_storage_public_access

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-GCP-013",
	"title": "Cloud Storage buckets are not public",
	"description": "An IAM binding or member granting a role on a bucket to allUsers or allAuthenticatedUsers makes its objects available to anyone on the internet (or anyone with a Google account).",
	"platform": ["Google Cloud"],
	"category": "Data protection",
	"service_group": "Cloud Storage",
	"severity": "critical",
	"aliases": ["CKV_GCP_28"],
	"controls": ["CIS-GCP_v1.3.0_5.1"],
	"remediation": {"terraform": "Remove allUsers and allAuthenticatedUsers from the members of the bucket's IAM bindings; share objects through signed URLs instead."},
	"references": ["https://cloud.google.com/storage/docs/access-control/making-data-public", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket_iam"],
}

public_members := {"allUsers", "allAuthenticatedUsers"}

deny contains info if {
	some binding in snyk.resources("google_storage_bucket_iam_binding")
	some i, member in binding.members
	member in public_members
	info := {"resource": binding, "message": sprintf("%s is granted %v.", [member, binding.role]), "attributes": [["members", i]]}
}

deny contains info if {
	some grant in snyk.resources("google_storage_bucket_iam_member")
	grant.member in public_members
	info := {"resource": grant, "message": sprintf("%s is granted %v.", [grant.member, grant.role]), "attributes": [["member"]]}
}

resources contains {"resource": r} if {
	some type in ["google_storage_bucket_iam_binding", "google_storage_bucket_iam_member"]
	some r in snyk.resources(type)
}
