package diff.encoding.json_schema

import rego.v1

bucket_schema := {
	"type": "object",
	"properties": {
		"name": {"type": "string", "pattern": "^[a-z0-9.-]{3,63}$"},
		"versioning": {"type": "boolean"},
		"tags": {"type": "object", "required": ["owner"], "additionalProperties": {"type": "string"}},
	},
	"required": ["name", "tags"],
}

valid := json.match_schema({"name": "logs-bucket", "versioning": true, "tags": {"owner": "sec"}}, bucket_schema)

bad_name := json.match_schema({"name": "Bad_Name", "tags": {"owner": "sec"}}, bucket_schema)

missing_tags := json.match_schema({"name": "logs-bucket"}, bucket_schema)

tag_types := json.match_schema({"name": "abc", "tags": {"owner": 7}}, bucket_schema)

from_strings := json.match_schema(`{"size": 12.5}`, `{"properties": {"size": {"type": "integer", "maximum": 10}}}`)

any_of := json.match_schema(`5`, {"anyOf": [{"type": "string"}, {"minimum": 10}]})

schema_ok := json.verify_schema(bucket_schema)

schema_bad := json.verify_schema({"properties": {"x": {"minLength": -1}}})

# An invalid schema makes match_schema undefined.
undefined_match := json.match_schema({}, {"type": "nope"})
