package diff.misc.versions_units

# semver.*, units.*, uuid.* as used in admission and inventory policies.

installed := {"openssl": "3.0.7", "curl": "v8.4.0", "zlib": "1.2.13-rc.1", "libxml2": "2.9"}

minimums := {"openssl": "3.0.8", "curl": "8.4.0", "zlib": "1.2.13", "libxml2": "2.9.0"}

outdated := {pkg |
	some pkg, version in installed
	semver.is_valid(version)
	semver.compare(version, minimums[pkg]) < 0
}

invalid_versions := {pkg | some pkg, v in installed; not semver.is_valid(v)}

precedence := [semver.compare(a, b) | some [a, b] in [
	["1.0.0-alpha", "1.0.0-alpha.1"],
	["1.0.0-alpha.1", "1.0.0-alpha.beta"],
	["1.0.0-beta.2", "1.0.0-beta.11"],
	["1.0.0-rc.1", "1.0.0"],
	["1.0.0+build.1", "1.0.0+build.2"],
	["2.0.0", "10.0.0"],
]]

validity := {v: semver.is_valid(v) | some v in ["1.0.0", "v1.0.0", "1.0", "01.0.0", "1.0.0-01", "1.0.0+meta.data", "1.0.0-"]}

compare_invalid := semver.compare("1.0", "1.0.0")

# Kubernetes-style resource quantities.
cpu_millis := [m | some q in ["250m", "1", "1.5", "2000m"]; m := units.parse(q) * 1000]

memory_values := {q: units.parse(q) | some q in ["128Mi", "1Gi", "1G", "1.5Gi", "512k", "1Ki", "1e3", "1M"]}

milli_fraction := units.parse("1m")

quoted_quantity := units.parse("\"10M\"")

units_space_error := units.parse("10 Mi")

units_unknown := units.parse("10Q")

units_lowercase_suffix := units.parse("1mi")

bytes_values := {s: units.parse_bytes(s) | some s in ["10KB", "10kb", "1KiB", "1.5GiB", "2G", "100", "4.2gb", "0.5mb"]}

disk_ok if units.parse_bytes("20GiB") >= units.parse_bytes("16GB")

bytes_error := units.parse_bytes("12 MB")

bytes_unknown := units.parse_bytes("1zb")

# UUIDs: parsed fields, and only properties of random ones.
parsed_v1 := uuid.parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")

parsed_v4 := uuid.parse("f47ac10b-58cc-4372-a567-0e02b2c3d479")

parsed_v2 := uuid.parse("000003e8-2b9a-21ef-9a00-325096b39f47")

parsed_braced := uuid.parse("{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}")

parsed_invalid := uuid.parse("not-a-uuid")

request_id_shape if {
	id := uuid.rfc4122("request")
	regex.match(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, id)
}

request_id_stable if uuid.rfc4122("request") == uuid.rfc4122("request")

request_ids_differ if uuid.rfc4122("a") != uuid.rfc4122("b")

random_uuid_parses := uuid.parse(uuid.rfc4122("x")).version
