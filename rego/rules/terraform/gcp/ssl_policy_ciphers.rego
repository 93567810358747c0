# SSL policies allow neither old TLS versions nor weak cipher suites.
package rules.tf_gcp_ssl_policy_ciphers

import rego.v1

resource_type := "google_compute_ssl_policy"

input_type := "tf"

metadata := {
	"id": "RE-GCP-039",
	"title": "SSL policies do not allow weak cipher suites",
	"description": "An SSL policy is what HTTPS and SSL proxy load balancers negotiate with clients. The COMPATIBLE profile (the default) and TLS 1.0 or 1.1 admit cipher suites without forward secrecy or with broken algorithms; acceptable are RESTRICTED, MODERN with a TLS 1.2 minimum, or CUSTOM with a TLS 1.2 minimum and no RSA key-exchange or 3DES suites.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "Load Balancing",
	"severity": "medium",
	"controls": ["CIS-GCP_v1.3.0_3.9"],
	"remediation": {"terraform": "Set profile = \"RESTRICTED\", or profile = \"MODERN\" with min_tls_version = \"TLS_1_2\" (for CUSTOM, leave the TLS_RSA_* and 3DES suites out of custom_features)."},
	"references": [
		"https://cloud.google.com/load-balancing/docs/ssl-policies-concepts",
		"https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_ssl_policy",
	],
}

profile := object.get(input, "profile", "COMPATIBLE")

min_tls := object.get(input, "min_tls_version", "TLS_1_0")

weak_feature(feature) if startswith(feature, "TLS_RSA_WITH_")

weak_feature(feature) if contains(feature, "3DES")

deny contains info if {
	profile == "COMPATIBLE"
	info := {"result_tag": "profile", "message": "The policy uses the COMPATIBLE profile.", "attributes": [["profile"]]}
}

deny contains info if {
	profile in {"MODERN", "CUSTOM"}
	min_tls != "TLS_1_2"
	info := {"result_tag": "min_tls_version", "message": sprintf("The %s profile allows %s.", [profile, min_tls]), "attributes": [["min_tls_version"]]}
}

deny contains info if {
	profile == "CUSTOM"
	weak := [f | some f in object.get(input, "custom_features", []); weak_feature(f)]
	count(weak) > 0
	info := {"result_tag": "custom_features", "message": sprintf("The policy allows %s.", [concat(", ", weak)]), "attributes": [["custom_features"]]}
}
