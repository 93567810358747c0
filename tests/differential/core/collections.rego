package diff.core.collections

import rego.v1

set_ops := {
	"union": {1, 2} | {2, 3},
	"intersection": {1, 2, 3} & {2, 3, 4},
	"difference": {1, 2, 3} - {2},
}
set_builtins := [union({{1}, {2, 3}}), intersection({{1, 2}, {2, 3}})]
object_get := [object.get({"a": {"b": 1}}, ["a", "b"], "d"), object.get({"a": 1}, "z", "default")]
object_union := object.union({"a": 1, "b": {"c": 2}}, {"b": {"d": 3}, "e": 4})
object_remove := object.remove({"a": 1, "b": 2, "c": 3}, ["a", "c"])
object_filter := object.filter({"a": 1, "b": 2, "c": 3}, {"a", "b"})
object_keys := object.keys({"x": 1, "y": 2})
json_filter := json.filter({"a": {"b": 1, "c": 2}, "d": 3}, ["a/b", "d"])
json_remove := json.remove({"a": {"b": 1, "c": 2}, "d": 3}, ["a/c"])
array_ops := [array.concat([1, 2], [3]), array.slice([1, 2, 3, 4], 1, 3), array.reverse([1, 2, 3])]
walked := [path | walk({"a": [1, {"b": 2}]}, [path, _])]
non_string_keys := {1: "one", [1, 2]: "pair", true: "yes"}
nested := {"list": [{"set": {"z", "a"}}], "empty_set": set(), "empty": {}}
counts := [count([1, 2]), count({"a": 1}), count({1, 2, 3}), count("four")]
any_all := [any_true, all_true]
any_true if { some x in [1, 2, 3]; x > 2 }
all_true if { every x in [1, 2, 3] { x > 0 } }
