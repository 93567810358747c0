# DNSSEC keys do not use RSASHA1.
package rules.tf_gcp_dnssec_rsasha1

import rego.v1

resource_type := "google_dns_managed_zone"

input_type := "tf"

metadata := {
	"id": "RE-GCP-023",
	"title": "DNSSEC keys do not use RSASHA1",
	"description": "RSASHA1 relies on SHA-1, which is no longer collision resistant; key-signing and zone-signing keys should use a stronger algorithm.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "Cloud DNS",
	"severity": "low",
	"aliases": ["CKV_GCP_17"],
	"controls": ["CIS-GCP_v1.3.0_3.4", "CIS-GCP_v1.3.0_3.5"],
	"remediation": {"terraform": "Set algorithm to \"rsasha256\" (or ecdsap256sha256) in every default_key_specs of dnssec_config."},
	"references": ["https://cloud.google.com/dns/docs/dnssec-advanced", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dns_managed_zone#default_key_specs"],
}

deny contains info if {
	some i, config in input.dnssec_config
	some j, spec in object.get(config, "default_key_specs", [])
	lower(object.get(spec, "algorithm", "")) == "rsasha1"
	info := {"message": sprintf("The %v key uses RSASHA1.", [object.get(spec, "key_type", "")]), "attributes": [["dnssec_config", i, "default_key_specs", j, "algorithm"]]}
}
