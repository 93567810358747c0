"""The pinned `opa` binary as the oracle for Rego semantics.

A test whose oracle is missing is skipped, except under ``CI=true``, where it
fails instead: CI must never pass on tests that compared nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, NoReturn

import orjson
import pytest

from engine.rules.opa import OpaNotFound, find_opa
from engine.wasm.host_builtins import REGISTRY, BuiltinError
from engine.wasm.values import dumps, to_json


def opa_eval_expr(expr: str, *, input_json: Any = None) -> list[Any]:
    """Evaluate one Rego expression with `opa eval`; [] when undefined, [value] otherwise."""
    args = [str(find_opa().path), "eval", "--format", "json", f"x := {expr}"]
    stdin = None
    if input_json is not None:
        args[2:2] = ["--stdin-input"]
        stdin = orjson.dumps(input_json)
    proc = subprocess.run(args, input=stdin, capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(
            f"opa eval {expr!r} failed: {proc.stdout.decode()}{proc.stderr.decode()}"
        )
    doc = json.loads(proc.stdout)  # the stdlib keeps integers beyond 64 bits exact
    return [r["bindings"]["x"] for r in doc.get("result", [])]


def opa_call_strict(name: str, *args: Any) -> tuple[str, Any]:
    """Call builtin ``name`` with `opa eval --strict-builtin-errors`:
    ("value", result), ("undefined", None) or ("error", OPA's message)."""
    expr = f"x := {name}({', '.join(rego_literal(a) for a in args)})"
    args_ = [str(find_opa().path), "eval", "--strict-builtin-errors", "--format", "json", expr]
    proc = subprocess.run(args_, capture_output=True)
    doc = json.loads(proc.stdout)
    if "errors" in doc:
        return ("error", doc["errors"][0]["message"])
    results = doc.get("result", [])
    return ("value", results[0]["bindings"]["x"]) if results else ("undefined", None)


def host_call_strict(name: str, *args: Any) -> tuple[str, Any]:
    """A host builtin's outcome in `opa_call_strict`'s form."""
    try:
        return ("value", to_json(REGISTRY[name](*args)))
    except BuiltinError as err:
        return ("error", str(err))


def rego_literal(value: Any) -> str:
    """A Python value (engine.wasm.values model) written as a Rego literal."""
    return dumps(value).decode()


def opa_call(name: str, *args: Any) -> list[Any]:
    """Call builtin ``name`` on literal arguments with `opa eval`; [] when undefined."""
    return opa_eval_expr(f"{name}({', '.join(rego_literal(a) for a in args)})")


def _have_opa() -> bool:
    try:
        find_opa()
    except OpaNotFound:
        return False
    return True


IN_CI = os.environ.get("CI") == "true"
"""Whether a missing oracle fails a test instead of skipping it."""


def skip_without_oracle(reason: str) -> NoReturn:
    """Skip the running test, its oracle being missing; under ``CI=true``, fail it."""
    if IN_CI:
        pytest.fail(f"the oracle is missing under CI=true: {reason}")
    pytest.skip(reason)


needs_opa = pytest.mark.skipif(
    not IN_CI and not _have_opa(), reason="pinned opa binary not available"
)
"""Marks tests that compare with the pinned `opa` binary. Under ``CI=true`` they
always run, so a missing `opa` fails them."""


def host_call(name: str, *args: Any) -> list[Any]:
    """A host builtin's result in `opa_call`'s form: [] when undefined."""
    try:
        return [to_json(REGISTRY[name](*args))]
    except BuiltinError:
        return []
