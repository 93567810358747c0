package relations_test.aws.s3

import data.snyk
import rego.v1

# Terraform configuration: references render as the bucket's address, which is
# its id; a literal bucket name joins through `bucket`.
state := {
	"input_type": "tf_hcl",
	"resources": {
		"aws_s3_bucket": {
			"aws_s3_bucket.logs": {"attributes": {"bucket": "acme-logs"}},
			"aws_s3_bucket.data": {"attributes": {"bucket": "acme-data"}},
		},
		"aws_s3_bucket_acl": {"aws_s3_bucket_acl.logs": {"attributes": {"bucket": "aws_s3_bucket.logs", "acl": "log-delivery-write"}}},
		"aws_s3_bucket_ownership_controls": {"aws_s3_bucket_ownership_controls.data": {"attributes": {"bucket": "acme-data"}}},
		"aws_s3_bucket_logging": {"aws_s3_bucket_logging.data": {"attributes": {"bucket": "aws_s3_bucket.data", "target_bucket": "aws_s3_bucket.logs"}}},
		"aws_s3_bucket_versioning": {"aws_s3_bucket_versioning.data": {"attributes": {"bucket": "aws_s3_bucket.data"}}},
		"aws_s3_bucket_policy": {"aws_s3_bucket_policy.data": {"attributes": {"bucket": "aws_s3_bucket.data"}}},
		"aws_s3_bucket_public_access_block": {"aws_s3_bucket_public_access_block.data": {"attributes": {"bucket": "aws_s3_bucket.data"}}},
		"aws_s3_bucket_server_side_encryption_configuration": {"aws_s3_bucket_server_side_encryption_configuration.data": {"attributes": {"bucket": "aws_s3_bucket.data"}}},
	},
}

bucket(name) := b if {
	some b in snyk.resources("aws_s3_bucket")
	b._id == name
}

related_ids(name, relation) := [r._id | some r in snyk.relates(bucket(name), relation)]

test_acl_by_address if {
	related_ids("aws_s3_bucket.logs", "aws_s3_bucket.acl") == ["aws_s3_bucket_acl.logs"] with input as state
	related_ids("aws_s3_bucket.data", "aws_s3_bucket.acl") == [] with input as state
}

test_ownership_controls_by_name if {
	related_ids("aws_s3_bucket.data", "aws_s3_bucket.ownership_controls") == ["aws_s3_bucket_ownership_controls.data"] with input as state
}

configuration_relations := [
	"aws_s3_bucket.logging",
	"aws_s3_bucket.versioning",
	"aws_s3_bucket.policy",
	"aws_s3_bucket.public_access_block",
	"aws_s3_bucket.server_side_encryption_configuration",
]

test_each_configuration_resource if {
	every relation in configuration_relations {
		count(related_ids("aws_s3_bucket.data", relation)) == 1
		related_ids("aws_s3_bucket.logs", relation) == []
	} with input as state
}

test_back_from_configuration_to_bucket if {
	some logging in snyk.resources("aws_s3_bucket_logging") with input as state
	[b._id | some b in snyk.back_relates("aws_s3_bucket.logging", logging)] == ["aws_s3_bucket.data"] with input as state
}
