# VPC subnetworks have flow logs.
package rules.tf_gcp_subnet_flow_logs

import rego.v1

resource_type := "google_compute_subnetwork"

input_type := "tf"

metadata := {
	"id": "RE-GCP-003",
	"title": "VPC subnetworks have flow logs enabled",
	"description": "Flow logs record the connections to and from the subnetwork's instances, which investigations and anomaly detection need. A subnetwork has them when it has a log_config block; proxy-only subnetworks cannot and are left out.",
	"platform": ["Google Cloud"],
	"category": "Logging",
	"service_group": "VPC",
	"severity": "low",
	"aliases": ["CKV_GCP_26"],
	"controls": ["CIS-GCP_v1.3.0_3.8"],
	"remediation": {"terraform": "Add log_config { aggregation_interval = \"INTERVAL_5_SEC\", flow_sampling = 1, metadata = \"INCLUDE_ALL_METADATA\" } to the subnetwork."},
	"references": ["https://cloud.google.com/vpc/docs/using-flow-logs", "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_subnetwork#log_config"],
}

proxy_purposes := {"INTERNAL_HTTPS_LOAD_BALANCER", "REGIONAL_MANAGED_PROXY", "GLOBAL_MANAGED_PROXY"}

deny contains info if {
	not object.get(input, "purpose", "") in proxy_purposes
	count(object.get(input, "log_config", [])) == 0
	info := {"message": "The subnetwork has no log_config."}
}
