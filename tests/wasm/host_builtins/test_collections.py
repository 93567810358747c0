"""Tests for object.subset, numbers.range_step, graph.reachable_paths, cast_*, trace, rand.intn."""

from __future__ import annotations

import subprocess
from typing import Any

import orjson
import pytest
from oracle import host_call as call
from oracle import needs_opa, opa_call, opa_eval_expr, rego_literal

from engine.rules.opa import find_opa
from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.host_builtins.registry import EvalContext, reset_context, set_context
from engine.wasm.values import Set, to_json


def opa_call_untyped(name: str, *args: Any) -> list[Any]:
    """Like `opa_call`, with the arguments passed through ``json.unmarshal``.

    OPA's type checker then cannot reject wrong operand types at compile time,
    so they reach the builtin at run time as they would from input data.
    """
    wrapped = [f"json.unmarshal({orjson.dumps(orjson.dumps(a).decode()).decode()})" for a in args]
    return opa_eval_expr(f"{name}({', '.join(wrapped)})")


def opa_call_v0(name: str, *args: Any) -> list[Any]:
    """`opa_call` in Rego v0 mode, where deprecated builtins (``cast_*``) are allowed."""
    expr = f"{name}({', '.join(rego_literal(a) for a in args)})"
    proc = subprocess.run(
        [str(find_opa().path), "eval", "--v0-compatible", "--format", "json", f"x := {expr}"],
        capture_output=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"opa eval {expr!r} failed: {proc.stdout.decode()}{proc.stderr.decode()}"
        )
    doc = orjson.loads(proc.stdout)
    return [r["bindings"]["x"] for r in doc.get("result", [])]


CASES: list[tuple[str, tuple[Any, ...]]] = [
    # object.subset
    ("object.subset", ({"a": {"b": 1, "c": 2}, "d": 3}, {"a": {"b": 1}})),
    ("object.subset", ({"a": {"b": 1, "c": 2}}, {"a": {"b": 2}})),
    ("object.subset", ({"a": 1}, {"a": 1, "b": 2})),
    ("object.subset", ({"a": 1}, {})),
    ("object.subset", ({"a": 1}, {"a": 1.0})),
    ("object.subset", ({"a": {"b": 1}}, {"a": 1})),
    ("object.subset", ({"a": [1, 2, 3]}, {"a": [1, 2]})),
    ("object.subset", ({"a": [1, 2, 3]}, {"a": [1, 3]})),
    ("object.subset", ({"a": Set([1, 2, 3])}, {"a": Set([1, 2])})),
    ("object.subset", ({"a": [1, 2, 3]}, {"a": Set([1, 2])})),
    ("object.subset", ({"a": [{"x": 1, "y": 2}]}, {"a": [{"x": 1}]})),
    ("object.subset", ({1: "x", "1": "y"}, {1.0: "x"})),
    ("object.subset", ([1, 2, 3], [2, 3])),
    ("object.subset", ([1, 2, 3], [3, 2])),
    ("object.subset", ([1, 2, 1, 2, 3], [1, 2, 3])),
    ("object.subset", ([1, 2, 3], [])),
    ("object.subset", ([1, 2, 3], Set([3, 1]))),
    ("object.subset", ([1, 2, 3], Set([4]))),
    ("object.subset", ([], Set())),
    ("object.subset", ([1], Set())),
    ("object.subset", (Set([1, 2, 3]), Set([3, 1]))),
    ("object.subset", (Set([1, 2, 3]), [3, 1])),
    ("object.subset", ({"a": 1}, [])),
    # numbers.range_step
    ("numbers.range_step", (0, 10, 3)),
    ("numbers.range_step", (10, 0, 3)),
    ("numbers.range_step", (-3, 3, 2)),
    ("numbers.range_step", (1, 1, 5)),
    ("numbers.range_step", (0, 10, 20)),
    ("numbers.range_step", (1.0, 3, 1.0)),
    ("numbers.range_step", (0, 10, 0)),
    ("numbers.range_step", (0, 10, -1)),
    ("numbers.range_step", (0, 1, 0.5)),
    ("numbers.range_step", (0.5, 3, 1)),
    ("numbers.range_step", (0, 10**20, 5 * 10**19)),
    # graph.reachable_paths
    ("graph.reachable_paths", ({"a": ["b"], "b": ["c"], "c": []}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b", "c"], "b": ["d"], "c": ["d"], "d": []}, Set(["a"]))),
    ("graph.reachable_paths", ({"a": ["b"], "b": ["a"]}, ["a", "b"])),
    ("graph.reachable_paths", ({"a": ["a"]}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b", "a"], "b": []}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b", "c"], "c": ["d"]}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b"]}, ["z"])),
    ("graph.reachable_paths", ({"a": Set(["b"]), "b": Set(["c"]), "c": Set()}, ["a", "b"])),
    ("graph.reachable_paths", ({1: [2.0], 2: [3], 3: []}, [1.0])),
    ("graph.reachable_paths", ({"a": []}, [])),
    (
        "graph.reachable_paths",
        (
            {"n1": ["n2", "n3"], "n2": ["n4"], "n3": ["n4", "n5"], "n4": ["n6"], "n5": ["n1"]},
            ["n1"],
        ),
    ),
    ("graph.reachable_paths", ({"r": ["a", "b"], "a": ["x"], "b": ["x"], "x": ["r"]}, ["r"])),
    # trace, rand.intn (deterministic cases only)
    ("trace", ("hello",)),
    ("rand.intn", ("x", 1)),
    ("rand.intn", ("x", 0)),
    ("rand.intn", ("x", -1)),
    ("rand.intn", ("x", 1.0)),
    ("rand.intn", ("x", 1.5)),
    ("rand.intn", ("x", 10**20)),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_matches_opa(name: str, args: tuple[Any, ...]) -> None:
    assert call(name, *args) == opa_call(name, *args)


UNTYPED_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("object.subset", (1, {"a": 1})),
    ("graph.reachable_paths", ({"a": ["b", "c"], "b": ["a"], "c": None}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b"], "b": "x"}, ["a"])),
    ("graph.reachable_paths", ({"a": ["b"]}, "a")),
    ("numbers.range_step", ("1", 2, 1)),
    ("trace", (1,)),
    ("rand.intn", ("x", "5")),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "args"), UNTYPED_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(UNTYPED_CASES)]
)
def test_untyped_operands_match_opa(name: str, args: tuple[Any, ...]) -> None:
    assert call(name, *args) == opa_call_untyped(name, *args)


CAST_CASES: list[tuple[str, Any]] = [
    ("cast_array", [1, "a"]),
    ("cast_array", Set([2, 1])),
    ("cast_array", Set()),
    ("cast_array", {"a": 1}),
    ("cast_set", [2, 1, 2]),
    ("cast_set", Set(["x"])),
    ("cast_set", "a"),
    ("cast_boolean", True),
    ("cast_boolean", 1),
    ("cast_null", None),
    ("cast_null", 0),
    ("cast_object", {"a": [1]}),
    ("cast_object", [1]),
    ("cast_string", "s"),
    ("cast_string", 1),
]


@needs_opa
@pytest.mark.parametrize(
    ("name", "arg"), CAST_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CAST_CASES)]
)
def test_casts_match_opa_v0(name: str, arg: Any) -> None:
    assert call(name, arg) == opa_call_v0(name, arg)


# ---------------------------------------------------------------- without the oracle


@pytest.fixture
def ctx() -> Any:
    context = EvalContext(now_ns=0)
    token = set_context(context)
    yield context
    reset_context(token)


def test_rand_intn_is_memoised_per_seed_and_bound(ctx: EvalContext) -> None:
    rand = REGISTRY["rand.intn"]
    first = rand("seed", 10**9)
    assert 0 <= first < 10**9
    assert rand("seed", 10**9) == first
    assert rand("seed", -(10**9)) == first  # OPA keys the memo on |n|
    assert rand("seed", 1e9) == first
    assert ("rand.intn", "seed", 10**9) in ctx.memo
    assert all(0 <= rand(f"s{i}", 3) < 3 for i in range(50))


def test_rand_intn_fresh_per_evaluation() -> None:
    draws = set()
    for _ in range(5):
        token = set_context(EvalContext(now_ns=0))
        try:
            draws.add(REGISTRY["rand.intn"]("seed", 2**62))
        finally:
            reset_context(token)
    assert len(draws) > 1


def test_trace_records_notes(ctx: EvalContext) -> None:
    assert REGISTRY["trace"]("first") is True
    assert REGISTRY["trace"]("second") is True
    assert ctx.memo["trace"] == ["first", "second"]


def test_known_results() -> None:
    assert REGISTRY["numbers.range_step"](10, 0, 4) == [10, 6, 2]
    assert REGISTRY["object.subset"]([1, 2, 1, 2, 3], [1, 2, 3]) is True
    assert REGISTRY["object.subset"]([], Set()) is False
    paths = REGISTRY["graph.reachable_paths"]({"a": ["b", "a"], "b": []}, ["a"])
    assert to_json(paths) == [["a", "a"], ["a", "a", "b"], ["a", "b"]]
    assert REGISTRY["cast_set"]([2, 1, 2]) == Set([1, 2])
    with pytest.raises(BuiltinError):
        REGISTRY["numbers.range_step"](0, 5, 0)
    with pytest.raises(BuiltinError):
        REGISTRY["cast_string"](1)
