package diff.core.legacy_v0

deny[msg] {
	bucket := input.buckets[_]
	not bucket.encrypted
	msg := sprintf("%s is not encrypted", [bucket.name])
}

deprecated_builtins := [re_match("^lo", "logs"), any([false, true]), all([true, false]), set_diff({1, 2}, {2})]

allow {
	count(deny) == 0
}

first_public = name {
	input.buckets[i].public
	name := input.buckets[i].name
}
