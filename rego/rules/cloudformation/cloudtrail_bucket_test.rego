package rules.cfn_cloudtrail_bucket_test

import data.rules.cfn_cloudtrail_bucket as rule
import rego.v1

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::S3::Bucket": {
			"Guarded": {"attributes": {
				"BucketName": "guarded-trail-logs",
				"PublicAccessBlockConfiguration": {"BlockPublicPolicy": true, "RestrictPublicBuckets": "true"},
				"LoggingConfiguration": {"DestinationBucketName": "AccessLogs"},
			}},
			"Open": {"attributes": {"PublicAccessBlockConfiguration": {"BlockPublicPolicy": true}}},
		},
		"AWS::CloudTrail::Trail": {
			"GuardedTrail": {"attributes": {"S3BucketName": "guarded-trail-logs"}},
			"OpenTrail": {"attributes": {"S3BucketName": "Open"}},
		},
	},
}

test_unprotected_trail_bucket_fails if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["OpenTrail", "Open", "PublicAccessBlockConfiguration"], ["OpenTrail", "Open", "LoggingConfiguration"]}
	count(rule.resources) == 4 with input as state
}
