"""The Wasm host: bounds, builtin dispatch, value transfer across the boundary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.capabilities import BuiltinDecl
from engine.rules.compiler import CompiledPolicy, compile_policy
from engine.rules.sources import load_sources
from engine.wasm import values
from engine.wasm.host import (
    BuiltinUnavailable,
    EvalTimeout,
    Limits,
    MemoryLimitExceeded,
    PolicyInstance,
)
from engine.wasm.host_builtins import REGISTRY, BuiltinError

POLICY = """package host
import rego.v1

loop if {
	r := numbers.range(1, 20000)
	every i in r { every j in r { i + j > 0 } }
}
bomb := count([x | some x in numbers.range(1, 100000000)])
network := http.send({"method": "GET", "url": "http://127.0.0.1:1/"})
runtime := opa.runtime()
unsupported := graphql.schema_is_valid("type Query { a: Int }")
semver_result := semver.is_valid(input.version)
echo := input
small := 1 + 1
custom := __test_double(input.n)
"""

DOUBLE = BuiltinDecl(
    name="__test_double",
    decl={"type": "function", "args": [{"type": "number"}], "result": {"type": "number"}},
    description="test-only: doubles a number",
    source="test",
)


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> CompiledPolicy:
    root = tmp_path_factory.mktemp("host")
    (root / "host.rego").write_text(POLICY)
    entrypoints = [
        f"host/{r}"
        for r in (
            "loop",
            "bomb",
            "network",
            "runtime",
            "unsupported",
            "semver_result",
            "echo",
            "small",
            "custom",
        )
    ]
    return compile_policy(load_sources([root]), entrypoints, decls=[DOUBLE])


def double(inst: PolicyInstance, addr: int) -> int:
    return inst.from_python(inst.to_python(addr) * 2)


def make(policy: CompiledPolicy, **limits: Any) -> PolicyInstance:
    inst = PolicyInstance(policy, limits=Limits(**limits), custom={"__test_double": double})
    inst.set_input(b'{"n": 21, "version": "1.2.3"}')
    return inst


def test_runaway_evaluation_is_stopped_by_the_time_bound(policy: CompiledPolicy) -> None:
    inst = make(policy, timeout_seconds=1.0)
    # The error is raised only when the deadline interrupts the loop (4e8 steps).
    with pytest.raises(EvalTimeout, match="time limit of 1s"):
        inst.evaluate("host/loop")
    assert inst.evaluate("host/small") == [2]  # the instance survives


def test_memory_bomb_fails_cleanly_at_the_cap(policy: CompiledPolicy) -> None:
    inst = make(policy, max_memory_mb=64)
    with pytest.raises(MemoryLimitExceeded, match="memory limit of 64 MiB"):
        inst.evaluate("host/bomb")
    assert inst.evaluate("host/small") == [2]


def test_network_builtin_is_refused_naming_the_file(policy: CompiledPolicy) -> None:
    inst = make(policy)
    with pytest.raises(BuiltinUnavailable) as info:
        inst.evaluate("host/network")
    assert "builtin http.send is refused" in str(info.value)
    assert "host.rego" in str(info.value)


def test_runtime_is_the_empty_object_as_in_opa_wasm(policy: CompiledPolicy) -> None:
    assert make(policy).evaluate("host/runtime") == [{}]


def test_unimplemented_builtin_is_an_error_not_undefined(
    policy: CompiledPolicy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(REGISTRY, "graphql.schema_is_valid", raising=False)
    inst = make(policy)
    with pytest.raises(
        BuiltinUnavailable, match=r"graphql.schema_is_valid is not supported .*host.rego"
    ):
        inst.evaluate("host/unsupported")


def test_builtin_error_makes_the_call_undefined(
    policy: CompiledPolicy, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(_: Any) -> Any:
        raise BuiltinError("semver.is_valid: broken on purpose")

    monkeypatch.setitem(REGISTRY, "semver.is_valid", failing)
    assert make(policy).evaluate("host/semver_result") == []


def test_custom_builtin_dispatch(policy: CompiledPolicy) -> None:
    assert make(policy).evaluate("host/custom") == [42]


def test_input_is_parsed_once_and_reused(policy: CompiledPolicy) -> None:
    inst = make(policy)
    first = inst.evaluate("host/echo")
    for _ in range(50):
        inst.evaluate("host/small")
    assert inst.evaluate("host/echo") == first == [{"n": 21, "version": "1.2.3"}]


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
rego_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.lists(inner, max_size=4).map(values.Set)
    ),
    max_leaves=20,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=rego_values)
def test_values_round_trip_through_wasm_memory(policy: CompiledPolicy, value: Any) -> None:
    inst = _shared_instance(policy)
    addr = inst.from_python(value)
    back = inst.to_python(addr)
    assert values.freeze(back) == values.freeze(value)


_INSTANCES: dict[str, PolicyInstance] = {}


def _shared_instance(policy: CompiledPolicy) -> PolicyInstance:
    if policy.key not in _INSTANCES:
        _INSTANCES[policy.key] = make(policy)
    return _INSTANCES[policy.key]


def test_module_compiled_once_per_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five instances of a policy no other test compiles: its native code is
    made (compiled, or read from the signed disk cache) once, not per instance."""
    import wasmtime

    (tmp_path / "once.rego").write_text("package compiled_once\n\nvalue := 1 + 1\n")
    policy = compile_policy(load_sources([tmp_path]), ["compiled_once/value"])
    made: list[str] = []
    compile_module = wasmtime.Module.__init__
    deserialize = wasmtime.Module.deserialize.__func__

    def counted_init(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append("compiled")
        compile_module(self, *args, **kwargs)

    def counted_deserialize(cls: Any, *args: Any, **kwargs: Any) -> Any:
        made.append("deserialized")
        return deserialize(cls, *args, **kwargs)

    monkeypatch.setattr(wasmtime.Module, "__init__", counted_init)
    monkeypatch.setattr(wasmtime.Module, "deserialize", classmethod(counted_deserialize))
    for _ in range(5):
        assert make(policy).evaluate("compiled_once/value") == [2]
    assert len(made) == 1, made
