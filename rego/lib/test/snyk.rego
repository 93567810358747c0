# The snyk policy API in test mode: pure Rego over `input`, the State
# document. Same results as the scan's host-backed API (rego/lib/snyk.rego);
# used by the test runner and as the oracle of the differential tests.
package snyk

import rego.v1

resources(resource_type) := [resource_object(r, resource_type, key) |
	some key
	r := input.resources[resource_type][key]
]

query(q) := resources(q.resource_type) if {
	every k, v in object.get(q, "scope", {}) {
		object.get(object.get(input, "scope", {}), k, null) == v
	}
} else := []

input_type := input.input_type

input_resource_types := {t | some t, _ in input.resources}

# The resource object rules see: attributes plus engine fields.
resource_object(r, resource_type, key) := object.union(
	object.get(r, "attributes", {}),
	{
		"id": _visible_id(r, key),
		"_id": _logical_id(r, key),
		"_type": object.get(r, "resource_type", resource_type),
		"_namespace": object.get(r, "namespace", ""),
		"_meta": object.get(r, "meta", {}),
		"_tags": object.get(r, "tags", {}),
		"_provider": _string_or_empty(object.get(object.get(r, "meta", {}), "provider", "")),
		"_filepath": _filepath(r),
	},
)

_logical_id(r, key) := r.id if {
	is_string(r.id)
	r.id != ""
} else := key

_visible_id(r, key) := r.attributes.id if {
	is_string(r.attributes.id)
	r.attributes.id != ""
} else := _logical_id(r, key)

_filepath(r) := r.meta.filepath if is_string(r.meta.filepath)
else := input.meta.filepath if is_string(input.meta.filepath)
else := ""

_string_or_empty(s) := s if is_string(s)
else := ""
