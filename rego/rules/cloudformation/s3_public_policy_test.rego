package rules.cfn_s3_public_policy_test

import data.rules.cfn_s3_public_policy as rule
import rego.v1

public_doc := {"Statement": [{"Sid": "Anyone", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "x/*"}]}

state := {
	"input_type": "cfn",
	"resources": {
		"AWS::S3::Bucket": {
			"Open": {"attributes": {}},
			"Restricted": {"attributes": {"PublicAccessBlockConfiguration": {"RestrictPublicBuckets": true}}},
		},
		"AWS::S3::BucketPolicy": {
			"OpenPolicy": {"attributes": {"Bucket": "Open", "PolicyDocument": public_doc}},
			"RestrictedPolicy": {"attributes": {"Bucket": "Restricted", "PolicyDocument": public_doc}},
		},
	},
}

test_public_policy_fails_unless_restricted if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {["Open", "OpenPolicy", "statement[Anyone]"]}
	count(rule.resources) == 2 with input as state
}
