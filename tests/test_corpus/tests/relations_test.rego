# Relations in test mode: shipped relations, a user relation, relations set
# with `with`, and the order results come in (v1 syntax).
package relations_test

import data.fixtures.s3
import data.rules.s3_logging
import data.snyk
import rego.v1

bucket(name) := b if {
	some b in snyk.resources("aws_s3_bucket")
	b.bucket == name
}

test_shipped_relation_from_fields if {
	configs := snyk.relates(bucket("corpus-data"), "aws_s3_bucket.server_side_encryption_configuration") with input as s3.mock_input
	[c.id | some c in configs] == ["aws_s3_bucket_server_side_encryption_configuration.data"]
}

test_back_relates_finds_the_bucket if {
	some config in snyk.resources("aws_s3_bucket_server_side_encryption_configuration") with input as s3.mock_input
	owners := snyk.back_relates("aws_s3_bucket.server_side_encryption_configuration", config) with input as s3.mock_input
	[o.bucket | some o in owners] == ["corpus-data"]
}

test_user_relation_explicit if {
	targets := snyk.relates(bucket("corpus-data"), "corpus.logs_to") with input as s3.mock_input
	[t.bucket | some t in targets] == ["corpus-logs"]
}

test_relates_with_carries_the_annotation if {
	pairs := snyk.relates_with(bucket("corpus-data"), "corpus.logs_to") with input as s3.mock_input
	[[p[0].bucket, p[1]] | some p in pairs] == [["corpus-logs", "data/"]]
}

test_logging_rule_over_the_fixture if {
	ids := {info.resource.id | some info in s3_logging.deny with input as s3.mock_input}
	ids == {"aws_s3_bucket.public"}
}

test_log_destinations_partial_object if {
	dest := s3_logging.log_destinations with input as s3.mock_input
	dest == {"corpus-data": ["data/"]}
}

test_relation_set_with_with if {
	state := {"resources": {
		"a_type": {"a1": {"attributes": {"ref": "x"}}},
		"b_type": {"b1": {"attributes": {"name": "x"}}, "b2": {"attributes": {"name": "y"}}},
	}}
	relation := snyk.relation_from_fields("test.a_to_b", {"a_type": ["ref"]}, {"b_type": ["name"]})
	some a in snyk.resources("a_type") with input as state
	related := snyk.relates(a, "test.a_to_b") with input as state with data.relations.relations as {relation}
	[r._id | some r in related] == ["b1"]
}

# Object iteration follows key order in topdown but not inside Wasm: the
# test-mode API fixes the order, so both engines agree on these arrays.
scrambled := {"resources": {"aws_s3_bucket": {
	"zeta": {"attributes": {"bucket": "zeta"}},
	"alpha": {"attributes": {"bucket": "alpha"}},
	"mid": {"attributes": {"bucket": "mid"}},
	"b": {"attributes": {"bucket": "b"}},
	"a10": {"attributes": {"bucket": "a10"}},
	"a9": {"attributes": {"bucket": "a9"}},
	"c": {"attributes": {"bucket": "c"}},
	"d": {"attributes": {"bucket": "d"}},
}}}

test_resources_come_in_key_order if {
	names := [b.bucket | some b in snyk.resources("aws_s3_bucket")] with input as scrambled
	names == ["a10", "a9", "alpha", "b", "c", "d", "mid", "zeta"]
}

test_relates_results_are_ordered if {
	buckets := snyk.resources("aws_s3_bucket") with input as scrambled
	relation := {"name": "test.all", "keys": {
		"left": [[b, "k"] | some b in buckets; b.bucket == "zeta"],
		"right": [[b, "k"] | some b in buckets],
	}}
	some zeta in buckets
	zeta.bucket == "zeta"
	related := snyk.relates(zeta, "test.all") with input as scrambled with data.relations.relations as {relation}
	[r._id | some r in related] == ["a10", "a9", "alpha", "b", "c", "d", "mid", "zeta"]
}

test_input_resource_types if {
	snyk.input_resource_types == {"aws_s3_bucket"} with input as scrambled
}

# Deliberately failing: the public bucket logs nowhere.
test_deliberately_missing_relation if {
	count(snyk.relates(bucket("corpus-public"), "corpus.logs_to")) > 0 with input as s3.mock_input
}
