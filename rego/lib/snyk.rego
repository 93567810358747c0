# The snyk policy API, as the scan runs it: resources come from the host,
# which loads each input into Wasm memory once (see engine/relations/snyk_api.py).
package snyk

import rego.v1

# Resource objects of one type in the current input, ordered by resource key.
resources(resource_type) := __snyk_query({"resource_type": resource_type, "scope": {}})

# Resource objects matching {"resource_type": ..., "scope": {...}}; a non-empty
# scope matches only when every key equals the input's scope.
query(q) := __snyk_query(q)

# The current input's type: tf_hcl, tf_plan, tf_state, cloud_scan, cfn, k8s or arm.
input_type := __snyk_input_type()

# The set of resource types present in the current input.
input_resource_types := __snyk_input_resource_types()

# --- Relations (docs/relations.md) ---------------------------------------------
# The host evaluates data.relations.relations once per input, joins it, and puts
# the index in data.__rego_engine_input; these lookups never leave Wasm.

# Resources `resource` relates to in relation `name` (each once).
relates(resource, name) := [_related(p) | some p in _places("fwd", name, resource)]

# Resources related to `resource` in relation `name`, from the left side.
back_relates(name, resource) := [_related(p) | some p in _places("back", name, resource)]

# [resource, annotation] for every edge from `resource` in relation `name`.
relates_with(resource, name) := [[_related(p), p[2]] | some p in _annotated("fwd", name, resource)]

# [resource, annotation] for every edge into `resource` in relation `name`.
back_relates_with(name, resource) := [[_related(p), p[2]] |
	some p in _annotated("back", name, resource)
]

# A relation joining resources whose listed fields are equal: any left field of
# a left resource equal to any right field of a right resource. Fields are
# paths: "bucket", "spec.selector.app", "rule[*].bucket", "items[0].id".
relation_from_fields(name, left, right) := {"name": name, "fields": {"left": left, "right": right}}

# The index (engine/relations/snyk_api.py index_document): places [type key, position]
# in the resident arrays, each once ("r"), or per edge with annotations ("a").
_places(direction, name, r) := places if {
	places := data.__rego_engine_input.relations.r[direction][name][r._namespace][r._type][r._id]
} else := []

# Without an "a" entry, every annotation of the resource's edges is null.
_annotated(direction, name, r) := places if {
	places := data.__rego_engine_input.relations.a[direction][name][r._namespace][r._type][r._id]
} else := [[p[0], p[1], null] | some p in _places(direction, name, r)]

_related(place) := data.__rego_engine_input.resources[place[0]][place[1]]
