# Builtins the Wasm host implements, as tests use them (v0 syntax with
# future keywords).
package builtins_test

import future.keywords.if
import future.keywords.in

test_sprintf if {
	sprintf("%s has %d rules (%.1f%%)", ["pack", 3, 12.5]) == "pack has 3 rules (12.5%)"
}

test_regex if {
	regex.match(`^arn:aws:s3:::[a-z0-9.-]+$`, "arn:aws:s3:::corpus-data")
	regex.split(`\s*,\s*`, "a , b,c") == ["a", "b", "c"]
}

test_time if {
	ns := time.parse_rfc3339_ns("2024-02-29T12:00:00Z")
	time.date(ns) == [2024, 2, 29]
}

test_semver if {
	semver.compare("1.10.0", "1.9.3") == 1
}

test_units if {
	units.parse_bytes("1KiB") == 1024
}

test_json_round_trip if {
	json.unmarshal(json.marshal({"a": [1, 2]})) == {"a": [1, 2]}
}

test_yaml if {
	yaml.unmarshal("a: [1, 2]") == {"a": [1, 2]}
}

test_base64 if {
	base64.decode(base64.encode("rego")) == "rego"
}

test_cidr if {
	net.cidr_contains("10.0.0.0/8", "10.1.2.3")
	not net.cidr_contains("10.0.0.0/8", "11.0.0.1")
}

test_strings if {
	concat("-", ["a", "b"]) == "a-b"
	startswith("aws_s3_bucket", "aws_")
	"s3" in split("aws_s3_bucket", "_")
}

test_deprecated_v0_builtin if {
	re_match(`^a`, "abc")
}

# Deliberately failing: the digest is not this.
test_deliberately_wrong_digest if {
	crypto.sha256("rego") == "0000"
}
