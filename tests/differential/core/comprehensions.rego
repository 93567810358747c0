package diff.core.comprehensions

import rego.v1

buckets := input.buckets

names := [b.name | some b in buckets]
encrypted := {b.name | some b in buckets; b.encrypted}
by_region := {region: names_in |
	some b in buckets
	region := b.region
	names_in := sort([x.name | some x in buckets; x.region == region])
}
pairs := [[a.name, b.name] | some a in buckets; some b in buckets; a.name < b.name; a.region == b.region]
deny contains msg if {
	some b in buckets
	not b.encrypted
	msg := concat(" ", [b.name, "is not encrypted"])
}
deny contains msg if {
	some i, b in buckets
	b.public
	msg := concat("", ["bucket[", format_int(i, 10), "] is public"])
}
default allow := false
allow if count(deny) == 0
else_chain := "first" if {
	false
} else := "second" if {
	count(buckets) > 10
} else := "third"
func_multi(x) := "small" if x < 10
func_multi(x) := "large" if x >= 10
func_results := [func_multi(3), func_multi(30)]
