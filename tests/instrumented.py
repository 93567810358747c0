"""The module a scan runs, for tests that compare it with an oracle.

A scan evaluates the instrumented copy of the compiled module
(:func:`engine.evaluation.attribute_reads.traced_policy`: value reads recorded
in a buffer, topdown's early exit). Here, as in a scan, the reads of the
input are recorded; they are counted and otherwise dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.evaluation.attribute_reads import traced_policy
from engine.rules.compiler import CompiledPolicy, compile_policy
from engine.rules.sources import RegoFile, load_sources
from engine.wasm.host import PolicyInstance
from engine.wasm.read_tracing import PAIR, TRACE_FROM, TRACE_TO

MODULES = ("plain", "instrumented")
"""The two forms of a compiled module an oracle test runs."""

_WRAPPER = "__instrumented_eval"


class ReadCount:
    """How many reads an instrumented instance recorded."""

    def __init__(self) -> None:
        self.pairs = 0

    def take(self, pairs: bytes) -> None:
        self.pairs += len(pairs) // PAIR.size


def instance(
    policy: CompiledPolicy, module: str, **options: Any
) -> tuple[PolicyInstance, ReadCount]:
    """An instance of ``policy`` as compiled (``plain``) or of its instrumented
    copy recording every read (``instrumented``), with the count of its reads."""
    reads = ReadCount()
    if module == "plain":
        return PolicyInstance(policy, **options), reads
    assert module == "instrumented", module
    return _InputTracing(traced_policy(policy), read_hook=reads.take, **options), reads


class _InputTracing(PolicyInstance):
    """An instance of an instrumented module recording the reads of each input."""

    def set_input(self, *args: Any, **kwargs: Any) -> list[int]:
        addrs = super().set_input(*args, **kwargs)
        low, high = self.input_span
        self.set_global(TRACE_FROM, low)
        self.set_global(TRACE_TO, high)
        return addrs


def evaluate_ref(
    data_paths: list[Path], ref: str, module: str, *, input_json: bytes | None = None
) -> tuple[list[Any], ReadCount]:
    """The results of ``ref`` over the policies below ``data_paths``, evaluated in
    ``module`` (see :func:`instance`), and the reads recorded."""
    sources = load_sources(data_paths)
    wrapper = f"package {_WRAPPER}\nresult := {ref}\n"
    sources.rego_files.append(RegoFile(Path(f"{_WRAPPER}.rego"), f"{_WRAPPER}.rego", wrapper, 1))
    entrypoint = f"{_WRAPPER}/result"
    inst, reads = instance(compile_policy(sources, [entrypoint]), module)
    try:
        inst.set_input(input_json)
        return inst.evaluate(entrypoint), reads
    finally:
        inst.close()
