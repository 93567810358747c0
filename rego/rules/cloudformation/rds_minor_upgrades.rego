# RDS instances take minor engine upgrades.
package rules.cfn_rds_minor_upgrades

import data.shipped_lib.aws
import rego.v1

resource_type := "AWS::RDS::DBInstance"

input_type := "cfn"

metadata := {
	"id": "RE-CFN-013",
	"title": "RDS instances apply minor version upgrades automatically",
	"description": "Minor engine versions carry security fixes; an instance with AutoMinorVersionUpgrade turned off keeps a known-vulnerable version until someone upgrades it by hand.",
	"platform": ["AWS"],
	"category": "Databases",
	"service_group": "RDS",
	"severity": "low",
	"aliases": ["CKV_AWS_226"],
	"controls": ["CIS-AWS_v1.5.0_2.3.2"],
	"remediation": {"cloudformation": "Remove AutoMinorVersionUpgrade: false from the AWS::RDS::DBInstance (it defaults to true)."},
	"references": [
		"https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/USER_UpgradeDBInstance.Upgrading.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-rds-dbinstance.html",
	],
}

deny contains info if {
	not aws.cfn_true(object.get(input, "AutoMinorVersionUpgrade", true))
	info := {"message": "AutoMinorVersionUpgrade is false.", "attributes": [["AutoMinorVersionUpgrade"]]}
}
