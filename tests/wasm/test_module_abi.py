"""The ABI version read from a module's binary, against wasmtime's reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.compiler import compile_policy
from engine.rules.sources import PolicySources, RegoFile
from engine.wasm.host import PolicyInstance
from engine.wasm.module_abi import ModuleFormatError, abi_version


def _uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _sleb(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        done = (n == 0 and not b & 0x40) or (n == -1 and b & 0x40)
        out.append(b | (0 if done else 0x80))
        if done:
            return bytes(out)


def _name(text: str) -> bytes:
    return _uleb(len(text)) + text.encode()


def _section(section_id: int, *items: bytes) -> bytes:
    body = _uleb(len(items)) + b"".join(items)
    return bytes([section_id]) + _uleb(len(body)) + body


def _module(major: int, minor: int, *, imported_global: bool, export_minor: bool = True) -> bytes:
    """A module exporting its ABI globals; with ``imported_global``, one imported
    global shifts the index space as in a module that imports globals."""
    imports = [_name("env") + _name("memory") + b"\x02\x01\x02\x10"]  # memory, min 2, max 16
    imports.append(_name("env") + _name("f") + b"\x00" + _uleb(0))  # function of type 0
    if imported_global:
        imports.append(_name("env") + _name("g") + b"\x03\x7f\x00")  # const i32
    offset = 1 if imported_global else 0
    globals_ = [
        b"\x7f\x01\x41" + _sleb(-5) + b"\x0b",  # a mutable global before the ABI ones
        b"\x7f\x00\x41" + _sleb(major) + b"\x0b",
        b"\x7f\x00\x41" + _sleb(minor) + b"\x0b",
        b"\x7e\x00\x42" + _sleb(1 << 40) + b"\x0b",  # an i64 constant after them
    ]
    exports = [_name("opa_wasm_abi_version") + b"\x03" + _uleb(offset + 1)]
    if export_minor:
        exports.append(_name("opa_wasm_abi_minor_version") + b"\x03" + _uleb(offset + 2))
    types = _section(1, b"\x60\x00\x00")
    return (
        b"\0asm\x01\0\0\0"
        + types
        + _section(2, *imports)
        + _section(6, *globals_)
        + _section(7, *exports)
    )


def test_the_pinned_compilers_module_reads_as_wasmtime_reads_it(tmp_path: Path) -> None:
    probe = RegoFile(tmp_path / "p.rego", "p.rego", "package p\nx := 1\n", 1)
    policy = compile_policy(PolicySources(rego_files=[probe]), ["p/x"])
    assert abi_version(policy.wasm) == PolicyInstance(policy).abi_version


@pytest.mark.parametrize("imported_global", [False, True])
def test_exported_constant_globals_are_read_by_index(imported_global: bool) -> None:
    assert abi_version(_module(1, 300, imported_global=imported_global)) == (1, 300)


def test_a_missing_export_is_an_error() -> None:
    with pytest.raises(ModuleFormatError, match="opa_wasm_abi_minor_version"):
        abi_version(_module(1, 3, imported_global=False, export_minor=False))


def test_bytes_that_are_not_a_module_are_an_error() -> None:
    with pytest.raises(ModuleFormatError, match="not a Wasm module"):
        abi_version(b"PK\x03\x04")
    with pytest.raises(ModuleFormatError, match="truncated"):
        abi_version(_module(1, 3, imported_global=True)[:-3])
