# Tests of a multi-resource rule over the generated fixture (v1 syntax).
package rules.s3_encryption_test

import data.fixtures.s3
import data.rules.s3_encryption
import rego.v1

denied(state) := {info.resource.id | some info in s3_encryption.deny with input as state}

bucket_state(buckets) := {"input_type": "tf_hcl", "resources": {"aws_s3_bucket": buckets}}

test_fixture_denies_unencrypted_buckets if {
	denied(s3.mock_input) == {"aws_s3_bucket.logs", "aws_s3_bucket.public"}
}

test_fixture_marks_every_bucket_as_a_resource if {
	ids := {r.resource.id | some r in s3_encryption.resources with input as s3.mock_input}
	count(ids) == 3
}

test_inline_encryption_passes if {
	state := bucket_state({"b": {"attributes": {
		"bucket": "b",
		"server_side_encryption_configuration": [{"rule": []}],
	}}})
	count(denied(state)) == 0
}

test_message_names_the_bucket if {
	some info in s3_encryption.deny with input as s3.mock_input
	info.message == "bucket corpus-public is not encrypted"
}

test_metadata_severity if {
	s3_encryption.metadata.severity == "high"
}

test_empty_state_denies_nothing if {
	count(denied({"resources": {}})) == 0
}

# Deliberately failing: the fixture has two unencrypted buckets, not five.
test_deliberately_wrong_count if {
	count(denied(s3.mock_input)) == 5
}

todo_test_kms_key_is_required if {
	false
}
