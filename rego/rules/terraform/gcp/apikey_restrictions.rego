# API keys are restricted to applications and to APIs.
package rules.tf_gcp_apikey_restrictions

import rego.v1

resource_type := "google_apikeys_key"

input_type := "tf"

metadata := {
	"id": "RE-GCP-037",
	"title": "API keys are restricted to applications and APIs",
	"description": "An API key is a bearer secret that often ends up in client code. Without an application restriction (HTTP referrers, IP addresses, Android or iOS apps) anyone holding it can use it from anywhere; without API targets it works for every enabled API of the project.",
	"platform": ["Google Cloud"],
	"category": "Identity and access",
	"service_group": "API keys",
	"severity": "medium",
	"controls": ["CIS-GCP_v1.3.0_1.13", "CIS-GCP_v1.3.0_1.14"],
	"remediation": {"terraform": "Add restrictions { ... } with one of browser_key_restrictions, server_key_restrictions, android_key_restrictions or ios_key_restrictions, and api_targets blocks naming the services the key is for."},
	"references": [
		"https://cloud.google.com/docs/authentication/api-keys#api_key_restrictions",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/apikeys_key",
	],
}

application_restrictions := ["browser_key_restrictions", "server_key_restrictions", "android_key_restrictions", "ios_key_restrictions"]

restricted_to_applications(r) if {
	some key in application_restrictions
	count(object.get(r, key, [])) > 0
}

restrictions := [r | some r in object.get(input, "restrictions", [])]

deny contains info if {
	not any_application_restriction
	info := {"result_tag": "applications", "message": "The key has no application restriction.", "attributes": [["restrictions"]]}
}

deny contains info if {
	not any_api_targets
	info := {"result_tag": "api_targets", "message": "The key has no api_targets restriction.", "attributes": [["restrictions"]]}
}

any_application_restriction if {
	some r in restrictions
	restricted_to_applications(r)
}

any_api_targets if {
	some r in restrictions
	count(object.get(r, "api_targets", [])) > 0
}
