package diff.encoding.json

config := {
	"name": "api <prod>",
	"ports": [443, 8443],
	"tags": {"team": "core & infra", "env": "prod"},
	"enabled": true,
	"owner": null,
}

compact := json.marshal_with_options(config, {})

pretty := json.marshal_with_options(config, {"pretty": true})

indented := json.marshal_with_options(config, {"indent": "  "})

prefixed := json.marshal_with_options(config.tags, {"prefix": "# ", "indent": " "})

explicit_not_pretty := json.marshal_with_options(config, {"pretty": false, "indent": "    "})

bad_option := json.marshal_with_options(config, {"colour": true})

set_marshal := json.marshal_with_options({"ids": {3, 1, 2}}, {"pretty": true})

patched := json.patch(config, [
	{"op": "add", "path": "/ports/-", "value": 9443},
	{"op": "replace", "path": "/tags/env", "value": "staging"},
	{"op": "remove", "path": "/owner"},
	{"op": "copy", "from": "/name", "path": "/display_name"},
	{"op": "move", "from": "/enabled", "path": "/active"},
])

patch_test_ok := json.patch(config, [{"op": "test", "path": "/tags/team", "value": "core & infra"}])

patch_test_fail := json.patch(config, [{"op": "test", "path": "/tags/team", "value": "other"}])

patch_missing_path := json.patch(config, [{"op": "remove", "path": "/does/not/exist"}])

patch_bad_index := json.patch(config, [{"op": "add", "path": "/ports/01", "value": 1}])

patch_escaped := json.patch({}, [{"op": "add", "path": "/a~1b", "value": 1}, {"op": "add", "path": "/c~0d", "value": 2}])

patch_array_path := json.patch({"labels": {}}, [{"op": "add", "path": ["labels", "app.kubernetes.io/name"], "value": "web"}])

patch_set := json.patch({"groups": {"admin", "dev"}}, [
	{"op": "add", "path": "/groups/ops", "value": "ops"},
	{"op": "remove", "path": "/groups/dev"},
])

patch_whole_doc := json.patch({"a": 1}, [{"op": "add", "path": "", "value": {"b": 2}}])

add_label(obj, k, v) := json.patch(obj, [{"op": "add", "path": ["metadata", "labels", k], "value": v}])

labelled := add_label({"metadata": {"labels": {"a": "1"}}}, "b", "2")

hex_round_trip := hex.decode(hex.encode("policy ✓"))

hex_values := [hex.encode(s) | some s in ["", "abc", "é"]]

hex_bad := hex.decode("abc")

hex_upper := hex.decode("4F5041")

b64_no_pad := [base64url.encode_no_pad(s) | some s in ["a", "ab", "abc", "subject?>"]]
