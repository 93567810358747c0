# RDS instances take minor engine upgrades.
package rules.tf_aws_rds_minor_upgrades

import rego.v1

resource_type := "aws_db_instance"

input_type := "tf"

metadata := {
	"id": "RE-AWS-023",
	"title": "RDS instances apply minor version upgrades automatically",
	"description": "Minor engine versions carry security fixes; with automatic minor upgrades off, an instance keeps running known-vulnerable versions until someone upgrades it.",
	"platform": ["AWS"],
	"category": "Databases",
	"service_group": "RDS",
	"severity": "low",
	"aliases": ["CKV_AWS_226"],
	"controls": ["CIS-AWS_v1.5.0_2.3.2"],
	"remediation": {"terraform": "Remove auto_minor_version_upgrade = false (it defaults to true)."},
	"references": ["https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_UpgradeDBInstance.Upgrading.html", "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_instance#auto_minor_version_upgrade"],
}

deny contains info if {
	input.auto_minor_version_upgrade == false
	info := {"message": "auto_minor_version_upgrade is false.", "attributes": [["auto_minor_version_upgrade"]]}
}
