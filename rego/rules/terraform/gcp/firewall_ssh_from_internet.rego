# VPC firewall rules do not allow SSH from the internet.
package rules.tf_gcp_firewall_ssh_from_internet

import data.shipped_lib.gcp
import rego.v1

resource_type := "google_compute_firewall"

input_type := "tf"

metadata := {
	"id": "RE-GCP-001",
	"title": "Firewall rules do not allow SSH from the internet",
	"description": "An ingress rule allowing TCP port 22 from 0.0.0.0/0 (or ::/0) exposes SSH on every instance it targets to the whole internet.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "VPC",
	"severity": "high",
	"aliases": ["CKV_GCP_2"],
	"controls": ["CIS-GCP_v1.3.0_3.6"],
	"remediation": {"terraform": "Limit source_ranges to the addresses that need SSH, or use Identity-Aware Proxy TCP forwarding (35.235.240.0/20) instead."},
	"references": ["https://cloud.google.com/firewall/docs/firewalls", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_firewall"],
}

deny contains info if {
	some [i, allow] in gcp.world_ingress_allows(input)
	gcp.allows_port(allow, 22)
	info := {"message": "The rule allows port 22 from anywhere.", "attributes": [["allow", i], ["source_ranges"]]}
}
