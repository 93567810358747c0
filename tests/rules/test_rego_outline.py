"""The Rego outline scan: package and top-level rule names, v0 and v1."""

from __future__ import annotations

from engine.rules.rego_outline import (
    outline,
    package_path,
    relation_name_candidates,
    string_literals,
)


def test_v0_and_v1_rule_heads() -> None:
    text = """# a comment mentioning deny
package rules.snyk_001.tf

import data.snyk
import rego.v1

default allow := false

metadata := {
	"id": "X", "deny": 1,
}

deny contains info if {
	x := "} { not_a_rule"
	info := {"message": x}
}

resources[info] {
	info := {}
}

input_type = "tf"

helper(x) := y if { y := x }
else := 2

resource_type := `raw
string`
"""
    shape = outline(text)
    assert shape.package == "rules.snyk_001.tf"
    assert shape.rules == {
        "allow",
        "metadata",
        "deny",
        "resources",
        "input_type",
        "helper",
        "resource_type",
    }


def test_single_line_v1_rules_and_quoted_package() -> None:
    shape = outline('package rules["my-rule"].k8s\ndeny contains "x" if input.a\nallow if true\n')
    assert shape.package == "rules.my-rule.k8s"
    assert shape.rules == {"deny", "allow"}


def test_no_package() -> None:
    assert outline("# empty\n").package is None


def test_package_path() -> None:
    assert package_path('rules["a.b"].c') == "rules.a.b.c"


def test_string_literals_decodes_quoted_and_raw_strings() -> None:
    text = 'package x\n# "not this"\na := "q\\"uote"\nb := `raw\\n`\nc := f("x", "y")\n'
    assert string_literals(text) == {'q"uote', "raw\\n", "x", "y"}


def test_relation_name_candidates_leave_out_resource_type_arguments() -> None:
    text = (
        "package x\n"
        'a := snyk.resources("aws_s3_bucket")\n'
        "b := data.snyk.resources( `aws_instance` )\n"
        'c := snyk.relates(r, "aws_security_group")\n'
        'd := snyk.resources("aws_security_group")\n'
        'e := snyk.resources(concat("", ["aws_", "lb"]))\n'
        't := "aws_vpc"\n'
        "f := snyk.resources(t)\n"
    )
    # A literal the call consumes whole is a type; anything else may be a name.
    assert relation_name_candidates(text) == {"aws_security_group", "", "aws_", "lb", "aws_vpc"}
