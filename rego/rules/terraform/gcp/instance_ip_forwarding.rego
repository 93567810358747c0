# Instances do not forward IP packets.
package rules.tf_gcp_instance_ip_forwarding

import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-009",
	"title": "Instances have IP forwarding disabled",
	"description": "With can_ip_forward, an instance may send and receive packets for addresses other than its own, bypassing the network's routing and firewall assumptions; only routers and NAT appliances need it.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_36"],
	"controls": ["CIS-GCP_v1.3.0_4.6"],
	"remediation": {"terraform": "Remove can_ip_forward = true from the instance (unless it is a network appliance)."},
	"references": ["https://cloud.google.com/vpc/docs/using-routes#canipforward", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#can_ip_forward"],
}

deny contains info if {
	input.can_ip_forward == true
	info := {"message": "can_ip_forward is true.", "attributes": [["can_ip_forward"]]}
}
