"""Queries compiled as generated rules collecting their bindings."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.evaluation.query_rules import (
    blank_literals,
    query_bindings,
    query_rule,
    query_variables,
)
from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm.host import PolicyInstance


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        ("data.test.p.q[i].s = x", ["i", "x"]),
        ("data.x.p[x] = z", ["x", "z"]),
        ("data = x", ["x"]),
        ("1 / 0", []),
        ("data.x.p = input", []),
        ('uri.parse("http://a", x)', ["x"]),
        ("data.generated.p(1) = x", ["x"]),
        ("x = data.t.v; y = x.field", ["x", "y"]),
        ('x = $"{true} {"foo"} {[y | y := input.xs[_]]}"', ["x"]),
        ("y = [a | a := input[_]]; z = {b: 1 | b := y[_]}", ["y", "z"]),
        ("# comment x\nq = `raw x`", ["q"]),
        ("some k; data.t[k] = _", ["k"]),
    ],
)
def test_query_variables(query: str, variables: list[str]) -> None:
    assert query_variables(query) == variables


def test_blank_literals_keeps_positions_and_code() -> None:
    text = 'a = "x\\"y" # c\nb = `r` ; c = $"{d} {"e"}"'
    blanked = blank_literals(text)
    assert len(blanked) == len(text)
    assert blanked.split() == ["a", "=", "b", "=", ";", "c", "="]


MODULE = """package t

xs := [{"s": 1}, {"s": 2}]

f(x) := x * 10
"""


@pytest.mark.parametrize("version", [0, 1])
def test_many_queries_compile_into_one_module_each_with_its_bindings(version: int) -> None:
    rules = [
        query_rule("data.t.xs[i].s = x", "q.a", version, "a.rego"),
        query_rule("data.t.f(input.n) = y", "q.b", version, "b.rego"),
        query_rule("data.d.k = 1", "q.c", version, "c.rego"),
    ]
    sources = PolicySources(
        rego_files=[RegoFile(Path("t.rego"), "t.rego", MODULE, 1), *(r.module for r in rules)]
    )
    instance = PolicyInstance(compile_policy(sources, [r.entrypoint for r in rules]))
    assert query_bindings(instance, rules[0]) == [{"i": 0, "x": 1}, {"i": 1, "x": 2}]
    assert query_bindings(instance, rules[1], input_text=b'{"n": 4}') == [{"y": 40}]
    assert query_bindings(instance, rules[1]) == []  # no input: undefined
    assert query_bindings(instance, rules[2], data_text=b'{"d": {"k": 1}}') == [{}]
    assert query_bindings(instance, rules[2], data_text=b'{"d": {"k": 2}}') == []


def test_input_may_be_rego_value_text() -> None:
    rule = query_rule("x = count(input.s)", "q.s", 1, "s.rego")
    instance = PolicyInstance(
        compile_policy(PolicySources(rego_files=[rule.module]), [rule.entrypoint])
    )
    assert query_bindings(instance, rule, input_text=b'{"s": {1, 2, 2}}', rego_input=True) == [
        {"x": 2}
    ]
