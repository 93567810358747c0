# Instances have no external IP address.
package rules.tf_gcp_instance_public_ip

import rego.v1

resource_type := "google_compute_instance"

input_type := "tf"

metadata := {
	"id": "RE-GCP-012",
	"title": "Instances do not have public IP addresses",
	"description": "An access_config block gives a network interface an external address, reachable from the internet wherever firewall rules allow; instances can reach out through Cloud NAT and be reached through load balancers or IAP instead.",
	"platform": ["Google Cloud"],
	"category": "Network security",
	"service_group": "Compute Engine",
	"severity": "medium",
	"aliases": ["CKV_GCP_40"],
	"controls": ["CIS-GCP_v1.3.0_4.9"],
	"remediation": {"terraform": "Remove the access_config blocks from the instance's network_interface; use Cloud NAT for outbound traffic."},
	"references": ["https://cloud.google.com/compute/docs/ip-addresses/reserve-static-external-ip-address", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance#access_config"],
}

deny contains info if {
	some i, interface in input.network_interface
	count(object.get(interface, "access_config", [])) > 0
	info := {"message": "A network interface has an external IP address.", "attributes": [["network_interface", i, "access_config"]]}
}
