"""Constructs OPA's Wasm plan evaluates unlike its interpreter, rewritten before
``opa build -t wasm``: each case is compared with the pinned ``opa eval`` and
``opa test``, and the rewrite keeps every line where it was."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.evaluation.data_reference import eval_ref
from engine.rules.opa import find_opa
from engine.rules.plan_workarounds import rewrite_module
from engine.testing.runner import run_tests
from engine.wasm import values

NOT_OVER_PACKAGES = {
    "pkgs/x.rego": "package pkgs.x\nallow := true\n",
    "pkgs/y.rego": "package pkgs.y\nallow := false\n",
    "q.rego": (
        "package q\n"
        "missing contains name if {\n"
        '  some name in ["x", "y", "z"]\n'
        "  not data.pkgs[name]\n"
        "}\n"
        "denied contains name if {\n"
        '  some name in ["x", "y", "z"]\n'
        "  not data.pkgs[name].allow\n"
        "}\n"
    ),
}

WITH_FUNCTION_AND_INPUT = {
    "b.rego": (
        "package b\n"
        "f(x) := x + 1\n"
        'r := [f(1), input.x, object.get(input, "y", 0)]\n'
        "t := y if {\n"
        "  y := r with f as 10 with input.x as 5\n"
        "}\n"
        "u := y if {\n"
        '  y := r with data.b.f as 7 with input as {"x": 1, "y": 2} with input.y as 3\n'
        "}\n"
        "v := y if {\n"
        "  y := r with count as 0 with f as 2 with input.x as 4\n"
        "}\n"
    ),
}

NOT_BLOCK = {
    "c.rego": (
        "package c\n"
        "import future.keywords.not\n"
        'obj := {"a": [1, 2], "b": [3, 0], "c": []}\n'
        "g contains k if {\n"
        "  some k, v in obj\n"
        "  not {\n"
        "    some x in v\n"
        "    x == 0\n"
        "  }\n"
        "}\n"
        "h contains k if { some k, v in obj; not { some x in v; x > 2 } }\n"
        "f(lst) if not {\n"
        "  some x in lst\n"
        "  x == 0\n"
        "}\n"
        "a if f([1, 2])\n"
        "b if f([1, 0])\n"
    ),
}

SET_ORDER = {
    "d.rego": (
        "package d\n"
        's := {"b", "a", "c", "zz", "q", "m", "k"}\n'
        'j := concat(",", s)\n'
        "j2 := concat(\n"
        '  "-",\n'
        '  {x | some x in s; x != "q"}\n'
        ")\n"
        "arr := [x | some x in s]\n"
        "arr2 := [x | x := s[_]]\n"
        'nested := [[x | some x in t] | some t in {{"b", "a"}, {"d", "c"}}]\n'
        'by_key := {"k": {"z", "y", "x"}}\n'
        "arr3 := [x | x := by_key.k[_]]\n"
        'patched := json.patch({}, [{"op": "add", "path": "/k", "value": v} | some v in s])\n'
    ),
}

CASES = {
    "set-order": (SET_ORDER, "data.d"),
    "not-over-packages": (NOT_OVER_PACKAGES, "data.q"),
    "with-function-then-input": (WITH_FUNCTION_AND_INPUT, "data.b"),
    "not-block-in-iteration": (NOT_BLOCK, "data.c"),
}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def opa_eval(tree: Path, ref: str) -> Any:
    proc = subprocess.run(
        [str(find_opa().path), "eval", "--format", "json", "-d", str(tree), ref],
        capture_output=True,
        check=True,
    )
    results = json.loads(proc.stdout).get("result") or []
    return results[0]["expressions"][0]["value"] if results else None


@needs_opa
@pytest.mark.parametrize("case", sorted(CASES))
def test_eval_matches_opa_eval(tmp_path: Path, case: str) -> None:
    files, ref = CASES[case]
    tree = write(tmp_path, files)
    expected = opa_eval(tree, ref)
    result = eval_ref([tree], ref)
    assert result.defined
    assert json.loads(values.dumps_json(result.value)) == expected


@needs_opa
def test_the_cases_as_rego_tests_pass_as_under_opa_test(tmp_path: Path) -> None:
    files = {**NOT_OVER_PACKAGES, **WITH_FUNCTION_AND_INPUT, **NOT_BLOCK, **SET_ORDER}
    files["t_test.rego"] = (
        "package t\n"
        'test_missing if data.q.missing == {"z"}\n'
        'test_denied if data.q.denied == {"y", "z"}\n'
        "test_with if data.b.t == [10, 5, 0]\n"
        "test_with_data_function if data.b.u == [7, 1, 3]\n"
        "test_with_builtin if data.b.v == [2, 4, 0]\n"
        'test_not_block if data.c.g == {"a", "c"}\n'
        'test_not_block_inline if data.c.h == {"a", "c"}\n'
        "test_not_block_function if { data.c.a; not data.c.b }\n"
        'test_concat if data.d.j == "a,b,c,k,m,q,zz"\n'
        'test_array if data.d.arr == ["a", "b", "c", "k", "m", "q", "zz"]\n'
        'test_patch if data.d.patched == {"k": "zz"}\n'
    )
    tree = write(tmp_path, files)
    proc = subprocess.run(
        [str(find_opa().path), "test", "--format", "json", str(tree)], capture_output=True
    )
    assert all(not e.get("fail") and not e.get("error") for e in json.loads(proc.stdout))
    run = run_tests([tree])
    assert [o.verdict for o in run.outcomes] == ["PASS"] * 11, [
        (o.test.name, o.verdict) for o in run.outcomes
    ]


@pytest.mark.parametrize(
    "files", [NOT_OVER_PACKAGES, WITH_FUNCTION_AND_INPUT, NOT_BLOCK, SET_ORDER]
)
def test_the_rewrite_keeps_every_line_where_it_was(files: dict[str, str]) -> None:
    functions = {"data.b.f", "data.c.f"}
    for text in files.values():
        rewritten = rewrite_module(text, functions)
        assert rewritten.count("\n") == text.count("\n")


def test_what_is_rewritten() -> None:
    assert rewrite_module("p if not data.pkgs[name]\n") == (
        "p if count({1 | data.pkgs[name]}) == 0\n"
    )
    assert rewrite_module("p if { not data.a.b[k].c with input as {}; x }\n") == (
        "p if { count({1 | data.a.b[k].c}) == 0 with input as {}; x }\n"
    )
    assert rewrite_module("p if r with f as 1 with input.x as 2\n") == (
        "p if r with input.x as 2 with f as 1\n"
    )
    # a function under data stays a mock; a data document keeps its place
    assert rewrite_module("p if r with data.m.f as 1 with data.m.v as 2\n", {"data.m.f"}) == (
        "p if r with data.m.v as 2 with data.m.f as 1\n"
    )
    aliased = "import data.m\np if r with m.f as 1 with m.v as 2\n"
    assert rewrite_module(aliased, {"data.m.f"}).endswith("r with m.v as 2 with m.f as 1\n")


def test_set_order_wraps_the_iterated_collection() -> None:
    order = "data.__rego_engine.set_order.ordered"
    assert rewrite_module('j := concat(",", s)\n') == f'j := concat(",", {order}(s))\n'
    assert rewrite_module('p if concat(",", s, out)\n') == f'p if concat(",", {order}(s), out)\n'
    assert rewrite_module("a := [x | some x in s]\n") == f"a := [x | some x in {order}(s)]\n"
    assert rewrite_module("a := [x | x := a.b[k].c[_]]\n") == (
        f"a := [x | x := {order}(a.b[k].c)[_]]\n"
    )
    for text in (
        "a := {x | some x in s}\n",  # sets and objects have no order
        "a := [x | some k, x in s]\n",
        "a := strings.concat(s)\n",
        "a := [x | x := f(y)[_]]\n",
    ):
        assert rewrite_module(text) == text


def test_what_is_left_alone() -> None:
    for text in (
        "p if not data.pkgs.x\n",  # no variable key
        'p if not data.pkgs["x"]\n',
        "p if not input.x[k]\n",
        "p if x.not\n",
        "p if not {1, 2}\n",  # a set literal where not-blocks are not enabled
        "p if r with input.x as 2 with f as 1\n",  # already in order
        "p if r with data.m.v as 2\n",
    ):
        assert rewrite_module(text, {"data.m.f"}) == text


@needs_opa
def test_a_scan_runs_the_rewritten_constructs_as_opa_eval_does(tmp_path: Path) -> None:
    """The module a scan runs (which records attribute reads) agrees too; the
    expected messages are the ones ``opa eval`` gives for the same rule."""
    from scan_fixtures import state, write_json

    from engine.scanning.scanner import scan

    rule = (
        "package rules.order\n"
        "import rego.v1\n"
        "import future.keywords.not\n"
        'metadata := {"id": "ORDER-1", "title": "t", "severity": "low"}\n'
        'resource_type := "aws_s3_bucket"\n'
        "f(x) := x\n"
        "deny contains info if {\n"
        "  tags := {t | some t in object.keys(input.tags)}\n"
        "  not data.pkgs[input.name]\n"
        '  not { some t in tags; t == "keep" }\n'
        '  got := input.name with f as 1 with input.name as "mocked"\n'
        '  info := {"message": concat(",", {got, concat("+", tags)})}\n'
        "}\n"
    )
    write(tmp_path / "rules", {"order.rego": rule, **NOT_OVER_PACKAGES})
    buckets = {
        "a": {"name": "x", "tags": {"b": 1, "a": 2}},
        "b": {"name": "z", "tags": {"zz": 1, "c": 2, "a": 3}},
        "c": {"name": "z", "tags": {"keep": 1}},
    }
    write_json(tmp_path / "in" / "s.json", state(buckets))
    report = scan([tmp_path / "in"], [tmp_path / "rules"])
    (rule_result,) = [r for r in report.inputs[0].rule_results if r.package.endswith("rules.order")]
    assert not rule_result.errors
    failed = sorted(r.message for r in rule_result.results if not r.passed)
    # bucket a: data.pkgs.x exists; bucket c carries "keep"; bucket b: tags sorted
    assert failed == ["a+c+zz,mocked"]
