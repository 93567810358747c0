# Some trail logs S3 object-level reads and writes for every bucket: one
# result per trail and direction.
package rules.tf_aws_cloudtrail_s3_data_events

import data.snyk
import rego.v1

input_type := "tf"

metadata := {
	"id": "RE-AWS-030",
	"title": "CloudTrail logs S3 object-level reads and writes",
	"description": "Management events do not record who read, wrote or deleted which object; S3 data events do. The controls are account-wide: every trail of the configuration passes a direction (read or write) when at least one of them logs S3 object data events of that direction for all buckets, through an event_selector data_resource of type AWS::S3::Object on arn:aws:s3, or an advanced_event_selector on AWS::S3::Object without an ARN filter.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "low",
	"controls": ["CIS-AWS_v1.5.0_3.10", "CIS-AWS_v1.5.0_3.11"],
	"remediation": {"terraform": "On one trail, add event_selector { read_write_type = \"All\" data_resource { type = \"AWS::S3::Object\" values = [\"arn:aws:s3\"] } } (or an advanced_event_selector on resources.type AWS::S3::Object)."},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-cloudtrail-logging-for-s3.html",
		"https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudtrail#event_selector",
	],
}

all_buckets := {"arn:aws:s3", "arn:aws:s3:::"}

# read_write_type → the directions it logs.
directions := {"All": {"read", "write"}, "ReadOnly": {"read"}, "WriteOnly": {"write"}}

logged contains direction if {
	some trail in snyk.resources("aws_cloudtrail")
	some selector in object.get(trail, "event_selector", [])
	some resource in object.get(selector, "data_resource", [])
	resource.type == "AWS::S3::Object"
	some value in object.get(resource, "values", [])
	value in all_buckets
	some direction in directions[object.get(selector, "read_write_type", "All")]
}

# An advanced selector's field selectors by field name.
fields(selector) := {f.field: f | some f in object.get(selector, "field_selector", [])}

# readOnly equals ["true"] logs reads, ["false"] writes, absent both.
advanced_directions(f) := {"read", "write"} if not f.readOnly

advanced_directions(f) := {"read"} if f.readOnly.equals == ["true"]

advanced_directions(f) := {"write"} if f.readOnly.equals == ["false"]

logged contains direction if {
	some trail in snyk.resources("aws_cloudtrail")
	some selector in object.get(trail, "advanced_event_selector", [])
	f := fields(selector)
	"AWS::S3::Object" in object.get(f, ["resources.type", "equals"], [])
	not f["resources.ARN"]
	some direction in advanced_directions(f)
}

deny contains info if {
	some trail in snyk.resources("aws_cloudtrail")
	some direction in ["read", "write"]
	not direction in logged
	info := {
		"resource": trail,
		"result_tag": direction,
		"message": sprintf("No trail in the configuration logs S3 object-level %s events for all buckets.", [direction]),
	}
}

resources contains {"resource": trail, "result_tag": direction} if {
	some trail in snyk.resources("aws_cloudtrail")
	some direction in ["read", "write"]
}
