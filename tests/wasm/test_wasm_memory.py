"""Reading values from Wasm memory equals dumping them through OPA's serialiser."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import needs_opa

from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values
from engine.wasm.host import PolicyInstance

MODULE = """package probe
import rego.v1
copy := [input, {x | some x in input}] if is_array(input)
else := input
"""

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
rego_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.text(max_size=5), inner, max_size=5),
        st.lists(inner, max_size=4).map(values.Set),
    ),
    max_leaves=25,
)


@cache
def instance() -> PolicyInstance:
    sources = PolicySources([RegoFile(Path("probe.rego"), "probe.rego", MODULE, 1)], {}, [])
    return PolicyInstance(compile_policy(sources, ["probe/copy"]))


@needs_opa
@settings(max_examples=300, deadline=None)
@given(rego_values)
def test_reader_equals_value_dump(value: Any) -> None:
    inst = instance()
    inst.set_input(None)
    (addr,) = inst.extend_input([values.dumps(value)])
    assert inst.reader().read(addr) == values.parse(inst.value_dump(addr))


@needs_opa
@settings(max_examples=100, deadline=None)
@given(st.lists(rego_values, max_size=5))
def test_reader_on_values_built_by_evaluation(value: list) -> None:
    inst = instance()
    inst.set_input(values.dumps_json(values.to_json(value)))
    addr = inst.eval_addr("probe/copy")
    assert inst.reader().read(addr) == values.parse(inst.value_dump(addr))


@needs_opa
@settings(max_examples=200, deadline=None)
@given(st.lists(rego_values, max_size=6))
def test_reading_many_equals_reading_each(items: list) -> None:
    inst = instance()
    inst.set_input(None)
    addrs = inst.extend_input([values.dumps(v) for v in items])
    reader = inst.reader()
    assert reader.read_all(addrs) == [values.parse(inst.value_dump(a)) for a in addrs]
