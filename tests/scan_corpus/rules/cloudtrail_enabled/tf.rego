# Multi-resource rule, Rego v0: a missing-resource result when no trail exists.
package rules.cloudtrail_enabled

import data.snyk

input_type := "tf"

metadata := {
	"id": "SNYK-CC-TF-CT-1",
	"title": "CloudTrail is not enabled in all regions",
	"description": "A multi-region trail records API activity in every region, including ones you do not use.",
	"platform": ["AWS"],
	"remediation": {
		"terraform": "Add an aws_cloudtrail resource with `is_multi_region_trail = true`.",
		"console": "In the CloudTrail console, create a trail and apply it to all regions.",
	},
	"category": "Logging",
	"service_group": "CloudTrail",
	"controls": ["CIS-AWS_v1.4.0_3.1"],
	"severity": "Medium",
}

trails := snyk.resources("aws_cloudtrail")

deny[info] {
	count(trails) == 0
	info := {
		"resource_type": "aws_cloudtrail",
		"message": "No CloudTrail trail is configured, so API activity is not recorded",
	}
}

deny[info] {
	trail := trails[_]
	not trail.is_multi_region_trail == true
	info := {
		"resource": trail,
		"message": sprintf("CloudTrail %s records a single region only", [trail.name]),
		"attributes": [["is_multi_region_trail"]],
	}
}

resources[info] {
	trail := trails[_]
	info := {"resource": trail}
}
