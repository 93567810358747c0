"""Builtin arguments and results crossing the Wasm boundary without text.

Arguments are read straight from memory (``ValueReader.read_within``) and
must equal what ``values.parse(opa_value_dump)`` gives, down to types and
object order; scalar results are written in place and must be values the
Wasm side cannot tell from parsed ones.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import weakref
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.capabilities import BuiltinDecl
from engine.rules.compiler import CompiledPolicy, compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import values, wasmtime_adapter
from engine.wasm.host import EvalError, Limits, OutputLimitExceeded, PolicyInstance
from engine.wasm.memory import ReadBudgetExceeded

ECHO = BuiltinDecl(
    name="__test_echo",
    decl={"type": "function", "args": [{"type": "any"}], "result": {"type": "any"}},
    description="test-only: returns its argument, read into Python and written back",
    source="test",
)
BROKEN = BuiltinDecl(
    name="__test_broken",
    decl={"type": "function", "args": [{"type": "any"}], "result": {"type": "any"}},
    description="test-only: a host bug",
    source="test",
)

MODULE = """package t
import rego.v1

native := {
	"ints": [y | some x in numbers.range(-3, 3); y := x * 3],
	"max": 9223372036854775807,
	"min": -9223372036854775807 - 1,
	"big": 9223372036854775807 + 10,
	"float": 1 / 3,
	"const": {"a": true, "b": "interned é", "c": null, 1: [1.5, false], [1, "x"]: set()},
	"set": {1, "a", [true], {"k": "v"}},
	"text": concat("", ["tab\\t", "quote\\"", "nl\\n", "\\u0001", "✓"]),
}

strings := {
	"eq": sprintf("%s-%d", ["a", 1]) == "a-1",
	"member": "a-1" in {sprintf("%s-%d", ["a", 1]), "b"},
	"key": {sprintf("k%d", [1]): 1}.k1,
	"concat": concat(",", [sprintf("%d", [1]), sprintf("%v", ["é"])]),
	"keys": {x: i | some i in numbers.range(1, 3); x := sprintf("k%d", [i])},
	"upper": upper(sprintf("%s", ["abc"])),
	"count": count({sprintf("%s", ["x"]), "x"}),
	"long": count(sprintf("%s", [concat("", [x | some _ in numbers.range(1, 40); x := "ab"])])),
}

scalars := {
	"float": __test_echo(1.5) + 1,
	"int": __test_echo(41) + 1,
	"neg": __test_echo(-7) * 2,
	"big": __test_echo(12345678901234567890) == 12345678901234567890,
	"true": __test_echo(true) == true,
	"false": __test_echo(false),
	"null": __test_echo(null) == null,
	"in_set": __test_echo(2) in {1, 2},
	"dedup": count({__test_echo(7), 7, __test_echo(7.0)}),
	"key": {__test_echo(3): "three"}[3],
	"types": [type_name(__test_echo(x)) | some x in [null, true, 1, 1.5, "s", [1], {"a": 1}, {1}]],
	"string": __test_echo("é✓") == "é✓",
	"composite": __test_echo({"a": [1, {2}], 1: null}),
}

broken := __test_broken(1)
"""


def echo(inst: PolicyInstance, addr: int) -> int:
    return inst.from_python(inst.to_python(addr))


def broken(inst: PolicyInstance, addr: int) -> int:
    return 1 // (inst.to_python(addr) - 1)


@cache
def policy() -> CompiledPolicy:
    sources = PolicySources([RegoFile(Path("t.rego"), "t.rego", MODULE, 1)], {}, [])
    entrypoints = [f"t/{r}" for r in ("native", "strings", "scalars", "broken")]
    return compile_policy(sources, entrypoints, decls=[ECHO, BROKEN])


def make(**limits: Any) -> PolicyInstance:
    custom = {"__test_echo": echo, "__test_broken": broken}
    inst = PolicyInstance(policy(), limits=Limits(**limits), custom=custom)
    inst.set_input(None)
    return inst


@cache
def instance() -> PolicyInstance:
    return make()


def typed(value: Any) -> Any:
    """A value with its Python types and object order made part of equality."""
    if isinstance(value, dict):
        return ("object", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    if isinstance(value, values.Set):
        return ("set", [typed(v) for v in value])
    if isinstance(value, values.BoolKey):
        return ("boolkey", value.value)
    return (type(value).__name__, repr(value))


def assert_read_like_dump(inst: PolicyInstance, addr: int) -> None:
    expected = typed(values.parse(inst.value_dump(addr)))
    direct = inst.reader().read_within(addr, inst.limits.max_output_bytes)
    assert typed(direct) == expected
    assert typed(inst.to_python(addr)) == expected


keys = st.one_of(
    st.text(max_size=5),
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.floats(-2, 2, allow_nan=False).filter(lambda f: not f.is_integer()),
    st.lists(st.integers(0, 3), max_size=2),
).map(values.hashable_key)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([Decimal("1E+400"), Decimal("-2.5E+999")]),
    st.text(),
)
rego_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(keys, inner, max_size=5),
        st.lists(inner, max_size=4).map(values.Set),
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(rego_values)
def test_direct_read_equals_value_dump_for_parsed_values(value: Any) -> None:
    inst = instance()
    inst.set_input(None)
    (addr,) = inst.extend_input([values.dumps(value)])
    assert_read_like_dump(inst, addr)


@pytest.mark.parametrize("entrypoint", ["t/native", "t/strings", "t/scalars"])
def test_direct_read_equals_value_dump_for_computed_values(entrypoint: str) -> None:
    # Native ints, numbers beyond 64 bits, interned constants, host-written results.
    inst = make()
    assert_read_like_dump(inst, inst.eval_addr(entrypoint))


def test_computed_values_are_as_rego_makes_them() -> None:
    (native,) = make().evaluate("t/native")
    assert native["ints"] == [-9, -6, -3, 0, 3, 6, 9]
    assert native["min"] == -(2**63) and native["big"] == 2**63 + 9
    assert native["text"] == 'tab\tquote"nl\n\x01✓'
    assert native["const"][(1, "x")] == values.Set()


def test_read_budget_is_an_upper_bound_of_the_dump() -> None:
    inst = instance()
    inst.set_input(None)
    value = {"a": ["x" * 10, 1, None, True, values.Set([2.5])], 3: values.Set()}
    (addr,) = inst.extend_input([values.dumps(value)])
    exact = len(inst.value_dump(addr))
    reader = inst.reader()
    with pytest.raises(ReadBudgetExceeded):
        reader.read_within(addr, exact - 1)
    assert reader.read_within(addr, 10 * exact) == value


def test_argument_over_the_output_bound_is_refused_exactly() -> None:
    # 100 bytes: a 60-byte string passes the exact measure (though not the
    # read's upper bound); a 120-byte one is refused with the usual message.
    inst = make(max_output_mb=100 / 2**20)
    inst.set_input(None)
    small, large = inst.extend_input([values.dumps(["s" * 60]), values.dumps(["s" * 120])])
    assert inst.to_python(small) == ["s" * 60]
    with pytest.raises(OutputLimitExceeded, match="its argument is over the output limit"):
        inst.to_python(large)


@settings(max_examples=300, deadline=None)
@given(scalars | st.just("\x00nul") | st.integers(-(2**63), 2**63 - 1))
def test_written_scalars_equal_parsed_ones(value: Any) -> None:
    inst = instance()
    inst.set_input(None)
    written = inst.from_python(value)
    parsed = inst.parse_value(values.dumps(value))
    assert inst.value_dump(written) == inst.value_dump(parsed)
    assert typed(inst.to_python(written)) == typed(values.parse(inst.value_dump(parsed)))
    assert inst.reader().kind(written) == inst.reader().kind(parsed)


def test_string_results_behave_as_strings_in_rules() -> None:
    (result,) = make().evaluate("t/strings")
    assert result == {
        "eq": True,
        "member": True,
        "key": 1,
        "concat": "1,é",
        "keys": {"k1": 1, "k2": 2, "k3": 3},
        "upper": "ABC",
        "count": 1,
        "long": 80,
    }


def test_scalar_results_behave_as_values_in_rules() -> None:
    (result,) = make().evaluate("t/scalars")
    assert result == {
        "float": 2.5,
        "int": 42,
        "neg": -14,
        "big": True,
        "true": True,
        "false": False,
        "null": True,
        "in_set": True,
        "dedup": 1,
        "key": "three",
        "types": ["null", "boolean", "number", "number", "string", "array", "object", "set"],
        "string": True,
        "composite": {"a": [1, values.Set([2])], 1: None},
    }


def test_host_bug_in_a_handler_is_an_eval_error_and_the_instance_survives() -> None:
    inst = make()
    with pytest.raises(EvalError, match="builtin __test_broken failed: ZeroDivisionError"):
        inst.evaluate("t/broken")
    assert make().evaluate("t/scalars")[0]["int"] == 42
    assert inst.evaluate("t/scalars")[0]["int"] == 42


def test_interrupt_in_a_handler_reaches_the_caller_as_itself() -> None:
    def interrupted(inst: PolicyInstance, addr: int) -> int:
        raise KeyboardInterrupt

    inst = PolicyInstance(policy(), custom={"__test_echo": interrupted, "__test_broken": broken})
    inst.set_input(None)
    with pytest.raises(KeyboardInterrupt):
        inst.evaluate("t/scalars")
    assert inst.evaluate("t/native")[0]["max"] == 2**63 - 1


def test_closing_an_instance_frees_its_host_functions() -> None:
    gc.collect()  # instances earlier tests dropped
    before = wasmtime_adapter.host_function_count()
    inst = make()
    assert wasmtime_adapter.host_function_count() > before  # those the module imports
    inst.close()
    assert wasmtime_adapter.host_function_count() == before


def test_an_instance_dropped_without_closing_is_freed_with_its_store() -> None:
    # The host-function table holds its handlers weakly: it must not keep an
    # instance (and GiBs of Wasm memory) alive after its last user lets go.
    gc.collect()
    before = wasmtime_adapter.host_function_count()
    inst = make()
    assert inst.evaluate("t/strings")[0]["eq"] is True
    alive = weakref.ref(inst)
    del inst
    gc.collect()
    assert alive() is None
    assert wasmtime_adapter.host_function_count() == before


def test_process_with_live_instances_exits_cleanly(tmp_path: Path) -> None:
    # Host functions are freed with their stores, before the interpreter goes.
    script = textwrap.dedent(
        """
        from tests.wasm.test_builtin_transfer import make
        instances = [make() for _ in range(3)]
        for inst in instances:
            assert inst.evaluate("t/strings")[0]["eq"] is True
        """
    )
    repo = Path(__file__).resolve().parents[2]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    environment["PYTHONPATH"] = str(repo)  # ``tests`` importable whatever the environment
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
