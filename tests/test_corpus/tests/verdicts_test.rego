# How a test's value decides its verdict (v1 syntax without `import rego.v1`):
# partial-object tests, duplicate names, defaults, non-boolean values.
package verdicts_test

cases := [
	{"note": "small", "n": 1},
	{"note": "large", "n": 100},
]

test_table[tc.note] if {
	some tc in cases
	tc.n > 0
}

test_case_group.first := true

test_case_group_false.first := false

test_case_never_produced.first if {
	false
}

test_same_name if {
	true
}

# Deliberately failing: the second definition is reported as test_same_name#01.
test_same_name if {
	false
}

default test_with_default := false

test_with_default if {
	true
}

test_non_boolean_value := "yes"

test_else_branch if {
	false
} else := true

test_set_value contains 1

todo_test_later if {
	true
}

test_function_named_like_a_test(x) if {
	x
}
