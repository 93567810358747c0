# Projects authenticate without API keys.
package rules.tf_gcp_apikey_exists

import rego.v1

resource_type := "google_apikeys_key"

input_type := "tf"

metadata := {
	"id": "RE-GCP-040",
	"title": "Projects do not use API keys",
	"description": "An API key identifies a project, not a caller, and works for whoever holds it; standard authentication (service accounts, OAuth, workload identity) identifies the caller and can be revoked per identity. Every google_apikeys_key in the configuration is an API key of the project.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "API keys",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_1.12"],
	"remediation": {"terraform": "Remove the google_apikeys_key and authenticate callers with service accounts or OAuth; where a key is unavoidable, restrict it (see the API key restrictions rule)."},
	"references": [
		"https://cloud.google.com/docs/authentication/api-keys",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/apikeys_key",
	],
}

# Every key of this type is an API key, whatever its attributes.
deny contains {"message": "The configuration creates an API key."}
