# Public Cloud DNS zones sign their records.
package rules.tf_gcp_dnssec

import rego.v1

resource_type := "google_dns_managed_zone"

input_type := "tf"

metadata := {
	"id": "RE-GCP-022",
	"title": "Public Cloud DNS zones have DNSSEC enabled",
	"description": "DNSSEC lets resolvers check that answers come from the zone's owner, defeating spoofed responses and cache poisoning. Private zones are left out.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "Cloud DNS",
	"severity": "medium",
	"aliases": ["CKV_GCP_16"],
	"controls": ["CIS-GCP_v1.3.0_3.3"],
	"remediation": {"terraform": "Add dnssec_config { state = \"on\" } to the zone."},
	"references": ["https://cloud.google.com/dns/docs/dnssec", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dns_managed_zone#dnssec_config"],
}

signed if {
	some config in input.dnssec_config
	config.state == "on"
}

deny contains info if {
	lower(object.get(input, "visibility", "public")) == "public"
	not signed
	info := {"message": "DNSSEC is not on for the zone."}
}
