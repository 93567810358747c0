"""Modules whose constants outgrow the memory OPA declares still instantiate."""

from __future__ import annotations

from pathlib import Path

from oracle import needs_opa
from scan_fixtures import write

from engine.evaluation.data_reference import eval_ref
from engine.rules.compiler import compile_policy
from engine.rules.sources import load_sources
from engine.wasm.module_loading import data_pages
from engine.wasm.wasmtime_adapter import compile_module

STRINGS = 3000


def many_strings(tmp_path: Path) -> Path:
    lines = ["package many", ""]
    lines += [f's{i} := "value-{i}-{"y" * 40}"' for i in range(STRINGS)]
    lines.append("n := count([" + ", ".join(f"s{i}" for i in range(STRINGS)) + "])")
    return write(tmp_path / "many.rego", "\n".join(lines) + "\n")


@needs_opa
def test_data_segments_beyond_the_declared_memory(tmp_path: Path) -> None:
    policy = many_strings(tmp_path)
    result = eval_ref([policy], "data.many.n")
    assert result.value == STRINGS


@needs_opa
def test_the_module_needs_more_than_it_declares(tmp_path: Path) -> None:
    """Guards the test above: the module's data reaches past the memory it
    imports (instantiating it with that memory traps on the data segments)."""
    sources = load_sources([many_strings(tmp_path)])
    policy = compile_policy(sources, ["many/n"])
    module = compile_module(policy.wasm)
    assert data_pages(policy.wasm) > module.memory_minimum


def test_data_pages_of_a_module_without_data() -> None:
    header = b"\0asm\x01\0\0\0"
    assert data_pages(header) == 0
    # one data segment of 70,000 bytes at offset 1,000: ends in page 2
    segment = b"\x00\x41" + _leb(1000) + b"\x0b" + _leb(70_000) + b"\0" * 70_000
    body = _leb(1) + segment
    assert data_pages(header + b"\x0b" + _leb(len(body)) + body) == 2


def _leb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)
