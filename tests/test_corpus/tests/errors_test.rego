# Evaluation errors and builtin errors (v1 syntax). Conflicts are errors;
# builtin errors make the expression undefined, so the test fails, as in
# `opa test` without --strict-builtin-errors... which opa test does not use.
package errors_test

import rego.v1

conflicting := 1 if true

conflicting := 2 if true

f(_) := 1

f(_) := 2

obj[k] := v if {
	some k, v in {"a": 1}
}

obj[k] := v if {
	some k, v in {"a": 2}
}

test_rule_conflict_is_an_error if {
	conflicting == 1
}

test_function_conflict_is_an_error if {
	f(1) == 1
}

test_object_key_conflict_is_an_error if {
	obj.a == 1
}

test_division_by_zero_fails if {
	1 / 0
}

test_runtime_type_mismatch_fails if {
	x := input.a + 1 with input as {"a": "s"}
	x > 0
}

test_bad_regex_fails if {
	regex.match("(", "x")
}

test_bad_number_fails if {
	to_number("abc") == 1
}

test_undefined_input_fails if {
	input.missing == 1
}

test_bad_json_fails if {
	json.unmarshal("{") == {}
}
