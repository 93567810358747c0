# Project IAM grants neither admin roles to service accounts nor the
# Service Account User and Token Creator roles to anyone at project level.
package rules.tf_gcp_project_iam_service_accounts

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-GCP-036",
	"title": "Project IAM does not over-grant to or through service accounts",
	"description": "A service account holding Owner, Editor or an administrator role lets every workload and person able to use it administer the project. Service Account User or Token Creator granted on the whole project lets its holder act as every service account in it. The rule reads google_project_iam_member and google_project_iam_binding.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "IAM",
	"severity": "high",
	"controls": ["CIS-GCP_v1.3.0_1.5", "CIS-GCP_v1.3.0_1.6"],
	"remediation": {"terraform": "Give service accounts predefined or custom roles limited to what their workload does; grant roles/iam.serviceAccountUser and roles/iam.serviceAccountTokenCreator on individual service accounts (google_service_account_iam_member) rather than on the project."},
	"references": [
		"https://cloud.google.com/iam/docs/service-account-overview",
		"https://cloud.google.com/iam/docs/best-practices-service-accounts",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam",
	],
}

grant_types := ["google_project_iam_member", "google_project_iam_binding"]

impersonation_roles := {"roles/iam.serviceAccountUser", "roles/iam.serviceAccountTokenCreator"}

admin_role(role) if role in {"roles/owner", "roles/editor"}

admin_role(role) if {
	startswith(role, "roles/")
	some suffix in ["admin", "Admin"]
	endswith(role, suffix)
}

# [grant, member] for every member a grant names.
grant_members contains [grant, member] if {
	some grant in snyk.resources("google_project_iam_member")
	member := grant.member
}

grant_members contains [grant, member] if {
	some grant in snyk.resources("google_project_iam_binding")
	some member in object.get(grant, "members", [])
}

deny contains info if {
	some [grant, member] in grant_members
	is_string(member)
	startswith(member, "serviceAccount:")
	admin_role(grant.role)
	info := {
		"resource": grant,
		"result_tag": sprintf("admin[%s]", [member]),
		"message": sprintf("Service account %s is granted %s on the project.", [trim_prefix(member, "serviceAccount:"), grant.role]),
		"attributes": [["role"]],
	}
}

deny contains info if {
	some type in grant_types
	some grant in snyk.resources(type)
	grant.role in impersonation_roles
	info := {
		"resource": grant,
		"result_tag": "impersonation",
		"message": sprintf("%s is granted on the whole project.", [grant.role]),
		"attributes": [["role"]],
	}
}

resources contains {"resource": grant} if {
	some type in grant_types
	some grant in snyk.resources(type)
}
