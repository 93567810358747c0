# Some trail logs S3 object-level reads and writes for every bucket: one
# result per trail and direction.
package rules.cfn_cloudtrail_s3_data_events

import data.snyk
import rego.v1

input_type := "cfn"

metadata := {
	"id": "RE-CFN-022",
	"title": "CloudTrail logs S3 object-level reads and writes",
	"description": "Management events do not record who read, wrote or deleted which object; S3 data events do. The controls are account-wide: every trail of the template passes a direction (read or write) when at least one of them logs S3 object data events of that direction for all buckets, through EventSelectors DataResources of type AWS::S3::Object on arn:aws:s3, or AdvancedEventSelectors on AWS::S3::Object without an ARN filter.",
	"platform": ["AWS"],
	"category": "Logging",
	"service_group": "CloudTrail",
	"severity": "low",
	"controls": ["CIS-AWS_v1.5.0_3.10", "CIS-AWS_v1.5.0_3.11"],
	"remediation": {"cloudformation": "On one AWS::CloudTrail::Trail, add EventSelectors with ReadWriteType: All and DataResources [{Type: AWS::S3::Object, Values: [arn:aws:s3]}] (or AdvancedEventSelectors on resources.type AWS::S3::Object)."},
	"references": [
		"https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-cloudtrail-logging-for-s3.html",
		"https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-cloudtrail-trail-eventselector.html",
	],
}

all_buckets := {"arn:aws:s3", "arn:aws:s3:::"}

directions := {"All": {"read", "write"}, "ReadOnly": {"read"}, "WriteOnly": {"write"}}

logged contains direction if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	some selector in object.get(trail, "EventSelectors", [])
	some resource in object.get(selector, "DataResources", [])
	resource.Type == "AWS::S3::Object"
	some value in object.get(resource, "Values", [])
	value in all_buckets
	some direction in directions[object.get(selector, "ReadWriteType", "All")]
}

fields(selector) := {f.Field: f | some f in object.get(selector, "FieldSelectors", [])}

advanced_directions(f) := {"read", "write"} if not f.readOnly

advanced_directions(f) := {"read"} if f.readOnly.Equals == ["true"]

advanced_directions(f) := {"write"} if f.readOnly.Equals == ["false"]

logged contains direction if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	some selector in object.get(trail, "AdvancedEventSelectors", [])
	f := fields(selector)
	"AWS::S3::Object" in object.get(f, ["resources.type", "Equals"], [])
	not f["resources.ARN"]
	some direction in advanced_directions(f)
}

deny contains info if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	some direction in ["read", "write"]
	not direction in logged
	info := {
		"resource": trail,
		"result_tag": direction,
		"message": sprintf("No trail in the template logs S3 object-level %s events for all buckets.", [direction]),
	}
}

resources contains {"resource": trail, "result_tag": direction} if {
	some trail in snyk.resources("AWS::CloudTrail::Trail")
	some direction in ["read", "write"]
}
