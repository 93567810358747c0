# The snyk policy API in test mode: pure Rego over `input`, the State
# document. Same results as the scan's host-backed API (rego/lib/snyk.rego);
# used by the test runner and as the oracle of the differential tests.
package snyk

import rego.v1

# The State the API reads. Single-resource rules see one resource as `input`;
# a test asks them `with input as resource with data.snyk._state as state`.
_state := input

resources(resource_type) := [resource_object(r, rtype, key) |
	some rtype in sort(_types_of(resource_type))
	some key in _keys_in_order(_state.resources[rtype])
	r := _state.resources[rtype][key]
]

# Resource keys in sorted order. Iterating an object follows key order in
# topdown (opa eval, opa test) but hash order inside OPA's Wasm, so the order
# is made explicit: both give the order of the scan's snyk.resources.
_keys_in_order(x) := sort(object.keys(x)) if is_object(x)
else := [k | some k, _ in x]

# The State's types that are `resource_type` or inherit from it (the type
# hierarchy, rego/lib/type_hierarchy.json, when given as data), and itself.
_types_of(resource_type) := {resource_type} | {t |
	some t, _ in _state.resources
	resource_type in graph.reachable(_type_graph, {t})
}

# graph.reachable only follows nodes that are keys: every supertype is one.
_type_graph := object.union({s: set() | some supers in _supertypes; some s in supers}, _supertypes)

default _hierarchy := {}

_hierarchy := data.rego_engine.type_hierarchy

_supertypes[t] := {s |
	some section, types in _hierarchy
	_section_applies(section)
	some s in types[t]
} if {
	some section, types in _hierarchy
	_section_applies(section)
	types[t]
}

_section_applies(section) if section == object.get(_state, "input_type", "")

_section_applies("tf") if object.get(_state, "input_type", "") in {"tf_hcl", "tf_plan", "tf_state", "cloud_scan"}

query(q) := resources(q.resource_type) if {
	every k, v in object.get(q, "scope", {}) {
		object.get(object.get(_state, "scope", {}), k, null) == v
	}
} else := []

input_type := _state.input_type

input_resource_types := {t | some t, _ in _state.resources}

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
else := _state.meta.filepath if is_string(_state.meta.filepath)
else := ""

_string_or_empty(s) := s if is_string(s)
else := ""

# --- Relations: the same edges and order as the scan's index -------------------

relates(resource, name) := [x[3] | some x in sort({[y[0], y[1], y[2], y[4]] | some y in _related("fwd", name, resource)})]

back_relates(name, resource) := [x[3] | some x in sort({[y[0], y[1], y[2], y[4]] | some y in _related("back", name, resource)})]

relates_with(resource, name) := [[x[4], x[3]] | some x in sort(_related("fwd", name, resource))]

back_relates_with(name, resource) := [[x[4], x[3]] | some x in sort(_related("back", name, resource))]

relation_from_fields(name, left, right) := {"name": name, "fields": {"left": left, "right": right}}

# The other ends of `resource`'s edges as [type, _id, namespace, annotation, resource]:
# sorted, that is the result order of the scan's index.
_related(direction, name, resource) := {[r._type, r._id, r._namespace, ann, r] |
	some [_, r, ann] in _relation_lookup[direction][name][_relation_ref(resource)]
}

_relation_ref(r) := [r._namespace, r._type, r._id]

# direction → name → [[ref of the queried end, the other end, annotation]]
_relation_lists["fwd"][name] := [[_relation_ref(l), r, ann] | some [l, r, ann] in edges] if {
	some name, edges in _relation_edges
}

_relation_lists["back"][name] := [[_relation_ref(r), l, ann] | some [l, r, ann] in edges] if {
	some name, edges in _relation_edges
}

_relation_lookup[direction][name] := _group_by_first(list) if {
	some direction, lists in _relation_lists
	some name, list in lists
}

# [[key, ...], ...] grouped by key: {key: [items]}. Sorting first keeps this
# O(n log n) without relying on comprehension indexing.
_group_by_first(list) := {sorted[start][0]: array.slice(sorted, start, ends[j]) |
	some j, start in starts
} if {
	sorted := sort(list)
	n := count(sorted)
	n > 0
	starts := [i | some i in numbers.range(0, n - 1); _group_starts(sorted, i)]
	ends := array.concat(array.slice(starts, 1, count(starts)), [n])
} else := {}

_group_starts(_, 0)

_group_starts(sorted, i) if {
	i > 0
	sorted[i - 1][0] != sorted[i][0]
}

# A user relation replaces the shipped relation of the same name.
_relation_infos := array.concat(
	[i | some i in data.relations.relations; _valid_relation(i)],
	[i |
		some i in data.__rego_engine.shipped_relations.relations
		_valid_relation(i)
		not _user_relation_names[i.name]
	],
)

_user_relation_names contains object.get(i, "name", null) if some i in data.relations.relations

_relation_names := {i.name | some i in _relation_infos}

# name → {"left": items, "right": items} as [resource, key, annotated, annotation].
_relation_sides[name] := {"left": _side_items(infos, "left"), "right": _side_items(infos, "right")} if {
	some name in _relation_names
	infos := [i | some i in _relation_infos; i.name == name]
}

_side_items(infos, side) := array.concat(
	[_key_item(x) | some i in infos; some x in object.get(i, ["keys", side], [])],
	[[r, v, false, null] | some i in infos; some [r, v] in _field_items(object.get(i, ["fields", side], {}))],
)

_relation_edges[name] := keyed | explicit if {
	some name in _relation_names
	lefts := _group_by_first([[k, l, la, lann] |
		some [l, k, la, lann] in _relation_sides[name].left
		not _never_joins(k)
	])
	keyed := {[l, r, _edge_annotation(la, lann, ra, rann)] |
		some [r, k, ra, rann] in _relation_sides[name].right
		some [_, l, la, lann] in lefts[k]
	}
	explicit := {[p[0], p[1], _third(p)] |
		some i in _relation_infos
		i.name == name
		some p in object.get(i, "explicit", [])
	}
}

_key_item(x) := [x[0], x[1], count(x) == 3, _third(x)]

_third(x) := s[0] if {
	s := array.slice(x, 2, 3)
	count(s) == 1
} else := null

_edge_annotation(_, _, true, rann) := rann

_edge_annotation(true, lann, false, _) := lann

_edge_annotation(false, _, false, _) := null

_never_joins(null)

_never_joins("")

_valid_relation(i) if {
	is_string(i.name)
	i.name != ""
	some kind in ["keys", "explicit", "fields"]
	object.get(i, kind, null) != null
	every x in array.concat(object.get(i, ["keys", "left"], []), object.get(i, ["keys", "right"], [])) {
		_valid_item(x, 1)
	}
	every p in object.get(i, "explicit", []) {
		_valid_item(p, 2)
	}
}

_valid_item(x, resources) if {
	is_array(x)
	count(x) in {2, 3}
	every j in numbers.range(0, resources - 1) {
		is_object(x[j])
		is_string(x[j]._id)
	}
}

# [resource, value] for every value the listed field paths name.
_field_items(spec) := [[r, v] |
	some rtype, paths in spec
	some r in resources(rtype)
	some p in paths
	some v in _field_values(r, p)
]

_field_values(r, p) := [v |
	not contains(p, "[")
	v := object.get(r, split(trim_prefix(p, "."), "."), null)
] if not contains(p, "[")
else := [v |
	steps := _field_steps(p)
	walk(r, [path, v])
	count(path) == count(steps)
	every i, step in steps {
		_field_step_matches(path[i], step)
	}
]

_field_steps(p) := [_field_step(m) | some m in regex.find_all_string_submatch_n(`([^.\[\]]+)|\[(\*|[0-9]+)\]`, p, -1)]

_field_step(m) := m[1] if m[1] != ""
else := null if m[2] == "*"
else := to_number(m[2])

_field_step_matches(e, null) if is_number(e)

_field_step_matches(e, step) if {
	step != null
	e == step
}
