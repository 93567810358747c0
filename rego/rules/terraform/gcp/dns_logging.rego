# Cloud DNS logs queries from VPC networks.
package rules.tf_gcp_dns_logging

import rego.v1

resource_type := "google_dns_policy"

input_type := "tf"

metadata := {
	"id": "RE-GCP-026",
	"title": "Cloud DNS policies log queries",
	"description": "DNS query logs show which names workloads resolve, which reveals malware command-and-control lookups and data exfiltration over DNS.",
	"platform": ["Google Cloud"],
	"category": "Logging",
	"service_group": "Cloud DNS",
	"severity": "low",
	"controls": ["CIS-GCP_v1.3.0_2.12"],
	"remediation": {"terraform": "Set enable_logging = true on the google_dns_policy attached to the networks."},
	"references": ["https://cloud.google.com/dns/docs/monitoring", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dns_policy#enable_logging"],
}

deny contains info if {
	object.get(input, "enable_logging", false) != true
	info := {"message": "enable_logging is not true.", "attributes": [["enable_logging"]]}
}
