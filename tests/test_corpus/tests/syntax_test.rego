# Where tests start, in awkward syntax (v0): raw strings over several lines,
# comments that look like tests, else chains, `= true` heads.
package syntax_test

doc := `
test_not_a_rule {
  false
}
`

# test_commented_out { false }

test_raw_string_is_not_a_rule {
	contains(doc, "test_not_a_rule")
}

test_v0_value = true {
	count(doc) > 0
}

verdict = "low" {
	false
} else = "high" {
	true
}

test_after_an_else_chain {
	verdict == "high"
}

test_cases["with space"] = true {
	true
}

test_cases["plain"] = false {
	true
}

	test_indented {
	true
}
