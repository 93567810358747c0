package rules.tf_aws_s3_public_grants_test

import data.rules.tf_aws_s3_public_grants as rule
import rego.v1

public_policy := json.marshal({"Version": "2012-10-17", "Statement": [
	{"Sid": "PublicRead", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::site/*"},
	{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "s3:GetObject", "Resource": "*", "Condition": {"StringEquals": {"aws:PrincipalOrgID": "o-1"}}},
]})

state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.inline_acl": {"attributes": {"bucket": "inline-acl", "acl": "public-read"}},
			"aws_s3_bucket.site": {"attributes": {"bucket": "site"}},
			"aws_s3_bucket.blocked": {"attributes": {"bucket": "blocked", "acl": "public-read-write"}},
			"aws_s3_bucket.private": {"attributes": {"bucket": "private", "acl": "private"}},
		},
		"aws_s3_bucket_acl": {"aws_s3_bucket_acl.site": {"attributes": {"bucket": "aws_s3_bucket.site", "access_control_policy": [{"grant": [{"permission": "READ", "grantee": [{"type": "Group", "uri": "http://acs.amazonaws.com/groups/global/AllUsers"}]}]}]}}},
		"aws_s3_bucket_policy": {"aws_s3_bucket_policy.site": {"attributes": {"bucket": "aws_s3_bucket.site", "policy": public_policy}}},
		"aws_s3_bucket_public_access_block": {"aws_s3_bucket_public_access_block.blocked": {"attributes": {"bucket": "aws_s3_bucket.blocked", "ignore_public_acls": true}}},
	},
}

test_public_paths if {
	failures := {[i.primary_resource._id, i.resource._id, i.result_tag] | some i in rule.deny} with input as state
	failures == {
		["aws_s3_bucket.inline_acl", "aws_s3_bucket.inline_acl", "acl"],
		["aws_s3_bucket.site", "aws_s3_bucket_acl.site", "acl"],
		["aws_s3_bucket.site", "aws_s3_bucket_policy.site", "statement[PublicRead]"],
	}
}

test_grant_attribute_path if {
	paths := {p | some i in rule.deny; i.resource._id == "aws_s3_bucket_acl.site"; some p in i.attributes} with input as state
	paths == {["access_control_policy", 0, "grant", 0, "grantee"]}
}
