# Multi-resource fugue rule, Rego v0: policy[j] with allow_resource and
# deny_resource_with_message.
package rules.fugue_s3_public_acl

import data.fugue

__rego__metadoc__ := {
	"id": "FG_R00229",
	"title": "S3 buckets should not grant public read or write access",
	"description": "Public canned ACLs expose bucket contents to anyone on the internet.",
	"custom": {
		"severity": "High",
		"controls": {
			"CIS-AWS_v1.4.0": ["CIS-AWS_v1.4.0_2.1.5"],
			"NIST-800-53_vRev4": ["NIST-800-53_vRev4_AC-3", "NIST-800-53_vRev4_AC-6"],
		},
	},
}

resource_type = "MULTIPLE"

input_type = "tf"

buckets = fugue.resources("aws_s3_bucket")

public_acls = {"public-read", "public-read-write"}

is_public(bucket) {
	public_acls[bucket.acl]
}

policy[j] {
	bucket := buckets[_]
	not is_public(bucket)
	j := fugue.allow_resource(bucket)
}

policy[j] {
	bucket := buckets[_]
	is_public(bucket)
	j := fugue.deny_resource_with_message(bucket, sprintf("Bucket ACL %q grants public access", [bucket.acl]))
}
