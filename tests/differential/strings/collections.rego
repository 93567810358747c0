package diff.strings.collections

import rego.v1

required_labels := {"metadata": {"labels": {"app": "web"}}}

pod := {
	"metadata": {"name": "web-1", "labels": {"app": "web", "tier": "frontend"}},
	"spec": {"containers": [{"name": "web", "ports": [80, 443]}]},
}

has_required_labels := object.subset(pod, required_labels)

wrong_label := object.subset(pod, {"metadata": {"labels": {"app": "db"}}})

nested_array_run := object.subset({"ports": [22, 80, 443, 8080]}, {"ports": [80, 443]})

nested_array_gap := object.subset({"ports": [22, 80, 443, 8080]}, {"ports": [22, 443]})

nested_sets := object.subset({"caps": {"NET_ADMIN", "SYS_TIME", "CHOWN"}}, {"caps": {"CHOWN"}})

array_with_set := object.subset(["read", "write", "list"], {"list", "read"})

empty_array_with_empty_set := object.subset([], set())

numbers_equal := object.subset({"replicas": 3}, {"replicas": 3.0})

# Mixed top-level kinds are a builtin error: undefined.
set_with_array := object.subset({1, 2}, [1])

port_range := numbers.range_step(8000, 8010, 5)

countdown := numbers.range_step(10, 0, 3)

zero_step := numbers.range_step(0, 10, 0)

fractional_start := numbers.range_step(0.5, 3, 1)

even_squares := [sq | some x in numbers.range_step(0, 10, 2); sq := x * x]

role_graph := {
	"admin": ["editor", "auditor"],
	"editor": ["viewer"],
	"auditor": ["viewer"],
	"viewer": [],
}

role_paths := graph.reachable_paths(role_graph, ["admin"])

cyclic := graph.reachable_paths({"a": ["b"], "b": ["c"], "c": ["a"]}, {"a"})

dangling := graph.reachable_paths({"svc": ["db", "cache"], "cache": ["redis"]}, ["svc"])

reachable_from_editor := {p[count(p) - 1] | some p in graph.reachable_paths(role_graph, ["editor"])}

traced if {
	trace("checking roles")
	count(role_paths) > 0
}

rand_in_range if {
	n := rand.intn("bucket-sharding", 16)
	n >= 0
	n < 16
}

rand_memoised := rand.intn("seed", 1000) == rand.intn("seed", 1000)

rand_negative_bound if {
	n := rand.intn("neg", -5)
	n >= 0
	n < 5
}

rand_zero := rand.intn("z", 0)

rand_float_bound := rand.intn("f", 2.5)

every_path_starts_at_root if {
	every p in role_paths {
		p[0] == "admin"
	}
}
