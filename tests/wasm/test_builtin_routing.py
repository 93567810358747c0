"""Builtins routed from OPA's Wasm library to the host: the module rewrite.

What each routed builtin answers is compared with the pinned `opa eval` in
``tests/differential/core/wasm_library_routes.rego`` (both module forms)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.compiler import CompiledPolicy, compile_policy
from engine.rules.sources import load_sources
from engine.wasm import binary
from engine.wasm.builtin_routing import ROUTED_IDS, ROUTES, routed_module
from engine.wasm.host import Limits, PolicyInstance
from engine.wasm.read_tracing import TRACE_BUILTIN_ID

POLICY = """package routes
import rego.v1

replaced := replace(input.s, "", "-")
merged := object.union_n(input.none)
plain := upper(input.s)
"""


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> CompiledPolicy:
    root = tmp_path_factory.mktemp("routes")
    (root / "routes.rego").write_text(POLICY)
    entrypoints = ["routes/replaced", "routes/merged", "routes/plain"]
    return compile_policy(load_sources([root]), entrypoints)


def _bodies(wasm: bytes) -> dict[str, bytes]:
    module = binary.sections(wasm)
    offset = len(binary.imported_functions(module))
    code = next(s for s in module if s.id == binary.CODE)
    names = binary.function_names(module)
    bodies = binary.code_bodies(code)
    return {names.get(i + offset, str(i + offset)): b.code for i, b in enumerate(bodies)}


def test_each_routed_function_forwards_to_the_host_and_nothing_else_changes(
    policy: CompiledPolicy,
) -> None:
    before, after = _bodies(policy.wasm), _bodies(routed_module(policy.wasm))
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"opa_strings_replace", "builtin_object_union_n"}
    for name in changed:
        calls = [i for i in binary.instructions(after[name]) if i.op == binary.CALL]
        assert len(calls) == 1  # one call: the opa_builtinN import


def test_a_module_without_routed_functions_is_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text("package p\nx := upper(input.s)\n")
    policy = compile_policy(load_sources([tmp_path]), ["p/x"])
    assert routed_module(policy.wasm) is policy.wasm


def test_routed_ids_are_distinct_from_module_and_tracing_ids() -> None:
    assert len(ROUTED_IDS) == len(ROUTES)
    assert TRACE_BUILTIN_ID not in ROUTED_IDS
    assert min(ROUTED_IDS) > 0xFFFF  # OPA numbers a module's builtins from 0


def test_replace_with_an_empty_pattern_returns(policy: CompiledPolicy) -> None:
    # OPA's Wasm library loops forever here; a 5 s bound would stop it.
    inst = PolicyInstance(policy, limits=Limits(timeout_seconds=5))
    inst.set_input(b'{"s": "ab", "none": []}')
    assert inst.evaluate("routes/replaced") == ["-a-b-"]
    assert inst.evaluate("routes/merged") == [{}]
    assert inst.evaluate("routes/plain") == ["AB"]
