"""Tests for rego.parse_module: OPA's AST from the pinned opa, and its absence."""

from __future__ import annotations

import pytest
from oracle import host_call, needs_opa

from engine.rules.opa import find_opa
from engine.wasm.host_builtins import REGISTRY, BuiltinError

parse_module = REGISTRY["rego.parse_module"]

MODULES = [
    "package foo.bar\n\nimport rego.v1\nimport data.a\n\np if { a = true }\n",
    'package a\n# leading comment\np := 1 # trailing\nq contains x if { some x in [1, 2.5, "s"] }',
    'package a.b\ndefault allow := false\nallow if input.user == "admin"\nf(x) := y if y := x * 2',
    'package t\n\nr := {"k": [1, {2}], "s": `r\\n`} if { not input.x; every v in [1] { v > 0 } }',
]


@needs_opa
@pytest.mark.parametrize("source", MODULES, ids=[str(i) for i in range(len(MODULES))])
def test_against_opa(source: str) -> None:
    from oracle import opa_call

    expected = opa_call("rego.parse_module", "x.rego", source)
    assert expected, "opa parsed nothing; the case tests nothing"
    assert host_call("rego.parse_module", "x.rego", source) == expected


@needs_opa
def test_comment_locations_name_the_given_file() -> None:
    ast = parse_module("policies/p.rego", "package a\n# note\n")
    assert [c["Location"] for c in ast["comments"]] == [
        {"file": "policies/p.rego", "row": 2, "col": 1}
    ]


@needs_opa
def test_parse_error_is_opas() -> None:
    with pytest.raises(BuiltinError) as err:
        parse_module("x.rego", "package foo.")
    assert str(err.value) == (
        "rego.parse_module: 1 error occurred: x.rego:1: rego_parse_error: "
        "unexpected eof token: expected identifier"
    )


def test_without_opa_the_call_fails_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGO_ENGINE_OPA", "/nonexistent/opa")
    find_opa.cache_clear()
    try:
        with pytest.raises(BuiltinError, match=r"^rego\.parse_module: needs the opa binary"):
            parse_module("x.rego", "package a")
    finally:
        find_opa.cache_clear()


@pytest.mark.parametrize("args", [(1, "package a"), ("x.rego", None)])
def test_operand_types(args: tuple[object, object]) -> None:
    with pytest.raises(BuiltinError, match="must be string"):
        parse_module(*args)
