"""The instrumented module: every value read reported, topdown's early exit, same values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import needs_opa

from engine.rules.compiler import CompiledPolicy, compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm import binary, read_tracing, values
from engine.wasm.host import EvalError, PolicyInstance
from engine.wasm.read_tracing import traced_module

pytestmark = needs_opa

MODULE = """package t
import rego.v1

f(x) if x.first == 1

f(x) if x.second == 1

g(x) if {
	some v in x.items
	v == 1
}

r := [f(input.o), g(input.o)] if true

s := input.o.first

c := 1 if input.o.first
c := 2 if input.o.second

each := [v | some k in ["a", "b", "c", "d", "e"]; v := input.o[k]]
"""


@pytest.fixture(scope="module")
def policy() -> CompiledPolicy:
    sources = PolicySources([RegoFile(Path("t.rego"), "t.rego", MODULE, 1)], {}, [])
    return compile_policy(sources, ["t/r", "t/s", "t/c", "t/each"])


def _traced(policy: CompiledPolicy, suffix: str = ":traced") -> CompiledPolicy:
    return CompiledPolicy(
        traced_module(policy.wasm), policy.data, policy.entrypoints, policy.key + suffix
    )


def _run(
    policy: CompiledPolicy,
    doc: Any,
    entrypoint: str,
    *,
    traced: bool = True,
    buffer: int = read_tracing.BUFFER_BYTES,
    batches: list[int] | None = None,
) -> tuple[Any, dict[str, list[Any]]]:
    """The entrypoint's value, and the keys read of each object or array of
    ``input.o`` (by its key in ``input.o``; ``.`` for ``input.o`` itself),
    with every address traced (``traced``) or the range left empty; the
    number of pairs of each batch the hook took goes to ``batches``."""
    seen: list[tuple[int, int]] = []

    def hook(pairs: bytes) -> None:
        seen.extend(read_tracing.PAIR.iter_unpack(pairs))
        if batches is not None:
            batches.append(len(pairs) // read_tracing.PAIR.size)

    instance = PolicyInstance(policy, read_hook=hook, read_buffer_bytes=buffer)
    instance.set_input(values.dumps({"o": doc}))
    reader = instance.reader()
    o = reader.fields(instance.input_addr)["o"]
    named = {o: "."} | {addr: name for name, addr in reader.fields(o).items()}
    if traced:
        instance.set_global(read_tracing.TRACE_FROM, 1)
        instance.set_global(read_tracing.TRACE_TO, 0xFFFFFFFF)
    seen.clear()
    result_set = instance.eval_addr(entrypoint)
    instance.set_global(read_tracing.TRACE_TO, 0)  # the evaluation's reads only
    found = [entry["result"] for entry in instance.to_python(result_set)]
    reads: dict[str, list[Any]] = {}
    for node, key in seen:
        if node in named:
            reads.setdefault(named[node], []).append(instance.to_python(key))
    instance.close()
    return found, reads


def test_leb128_round_trips() -> None:
    for n in (0, 1, 63, 64, 127, 128, 300, 2**31 - 1, 2**32 - 1):
        assert binary.read_uleb(binary.uleb(n), 0) == (n, len(binary.uleb(n)))
    for n in (0, -1, -16, 63, -64, -65, 64, 2**31 - 1, -(2**31)):
        assert binary.read_sleb(binary.sleb(n), 0) == (n, len(binary.sleb(n)))


def test_a_compiled_module_reads_and_writes_back_unchanged(policy: CompiledPolicy) -> None:
    module = binary.sections(policy.wasm)
    assert binary.encode(module) == policy.wasm
    (code,) = [s for s in module if s.id == binary.CODE]
    bodies = binary.code_bodies(code)
    assert binary.code_section(bodies).payload == code.payload
    for body in bodies:
        instrs = list(binary.instructions(body.code))
        assert instrs[-1].op == binary.END and instrs[-1].end == len(body.code)
    assert "opa_value_get" in binary.function_names(module).values()


def test_not_a_module_is_refused() -> None:
    with pytest.raises(binary.WasmFormatError):
        traced_module(b"\x00asm\x02\x00\x00\x00")


def test_every_read_is_reported_and_values_are_unchanged(policy: CompiledPolicy) -> None:
    doc = {"first": 1, "second": 1, "items": [0, 1, 1]}
    plain = PolicyInstance(policy)
    plain.set_input(values.dumps({"o": doc}))
    expected = plain.evaluate("t/s")
    plain.close()
    found, reads = _run(_traced(policy), doc, "t/s")
    assert found == expected == [1]
    assert reads == {".": ["first"]}


def test_reads_outside_the_traced_range_stay_in_wasm(policy: CompiledPolicy) -> None:
    found, reads = _run(_traced(policy), {"first": 1}, "t/s", traced=False)
    assert found == [1]
    assert reads == {}


def test_a_function_stops_at_its_first_successful_body(policy: CompiledPolicy) -> None:
    traced = _traced(policy)
    doc = {"first": 1, "second": 1, "items": [0, 1, 1]}
    found, reads = _run(traced, doc, "t/r")
    assert found == [[True, True]]
    # f's second body is skipped, and g's iteration stops at the first match.
    assert reads["."].count("second") == 0
    assert reads["items"] == [0, 1]


def test_a_later_body_runs_when_the_earlier_ones_fail(policy: CompiledPolicy) -> None:
    found, reads = _run(_traced(policy), {"first": 0, "second": 1, "items": [1]}, "t/r")
    assert found == [[True, True]]
    assert "second" in reads["."]


def test_without_the_early_exit_every_body_and_element_is_read(
    policy: CompiledPolicy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan runs every body: what the rewrite changes is what topdown skips."""
    monkeypatch.setattr(read_tracing, "with_early_exit", lambda code: code)
    traced = _traced(policy, ":traced-without-early-exit")
    _, reads = _run(traced, {"first": 1, "second": 1, "items": [0, 1, 1]}, "t/r")
    assert "second" in reads["."]
    assert reads["items"] == [0, 1, 2]


def test_a_full_buffer_is_taken_during_the_evaluation_and_the_rest_after(
    policy: CompiledPolicy,
) -> None:
    traced = _traced(policy)
    doc = {k: i for i, k in enumerate("abcde")}
    whole: list[int] = []
    expected = _run(traced, doc, "t/each", batches=whole)
    assert expected == ([[0, 1, 2, 3, 4]], {".": ["a", "b", "c", "d", "e"]})
    assert len(whole) == 1
    batches: list[int] = []
    pair = read_tracing.PAIR.size
    assert _run(traced, doc, "t/each", buffer=2 * pair + 1, batches=batches) == expected
    assert len(batches) > 2 and set(batches[:-1]) == {2} and sum(batches) == sum(whole)


def test_the_buffer_outlives_every_input_and_holds_one_evaluations_reads(
    policy: CompiledPolicy,
) -> None:
    """The buffer lies below the heap resets: inputs parsed after it are intact,
    and an evaluation that fails leaves nothing for the next one."""
    seen: list[tuple[int, int]] = []
    instance = PolicyInstance(
        _traced(policy),
        read_hook=lambda pairs: seen.extend(read_tracing.PAIR.iter_unpack(pairs)),
        read_buffer_bytes=64 * read_tracing.PAIR.size,
    )
    instance.set_global(read_tracing.TRACE_FROM, 1)
    instance.set_global(read_tracing.TRACE_TO, 0xFFFFFFFF)
    doc = {k: i for i, k in enumerate("abcde")} | {"first": 1, "second": 1}
    for _ in range(2):
        instance.set_input(values.dumps({"o": doc}))
        assert instance.evaluate("t/each") == [[0, 1, 2, 3, 4]]
    seen.clear()
    with pytest.raises(EvalError):
        instance.evaluate("t/c")  # both bodies succeed with different values
    assert seen == []  # it stopped before the buffer filled
    assert instance.evaluate("t/s") == [1]
    o = instance.reader().fields(instance.input_addr)["o"]
    assert [instance.to_python(key) for node, key in seen if node == o] == ["first"]
    instance.close()
