"""The OPA Wasm ABI version a compiled module declares, read from its binary.

OPA exports the version as two constant globals, ``opa_wasm_abi_version`` and
``opa_wasm_abi_minor_version``. Reading them from the module's import, global
and export sections needs no Wasm runtime (``rego-engine version`` does not
load wasmtime for it).
"""

from __future__ import annotations

_MAGIC = b"\0asm"
_IMPORT, _GLOBAL, _EXPORT = 2, 6, 7
_GLOBAL_KIND = 3
_I32_CONST, _I64_CONST, _GLOBAL_GET, _END = 0x41, 0x42, 0x23, 0x0B
_FLOAT_CONST_BYTES = {0x43: 4, 0x44: 8}
_NAMES = ("opa_wasm_abi_version", "opa_wasm_abi_minor_version")


class ModuleFormatError(ValueError):
    """Bytes that are not a Wasm module with OPA's ABI version globals."""


class _Reader:
    """A cursor over a Wasm binary (LEB128 integers, names, bytes)."""

    def __init__(self, data: bytes, pos: int = 0, end: int | None = None) -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise ModuleFormatError("truncated Wasm module")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def unsigned(self) -> int:
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def signed(self) -> int:
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result - (1 << shift) if b & 0x40 else result

    def name(self) -> str:
        size = self.unsigned()
        if self.pos + size > self.end:
            raise ModuleFormatError("truncated Wasm module")
        text = self.data[self.pos : self.pos + size].decode("utf-8", "replace")
        self.pos += size
        return text

    def limits(self) -> None:
        flags = self.byte()
        self.unsigned()
        if flags & 1:
            self.unsigned()


def _imported_globals(section: _Reader) -> int:
    """How many globals the import section imports (they come first in the index space)."""
    count = 0
    for _ in range(section.unsigned()):
        section.name()
        section.name()
        kind = section.byte()
        if kind == 0:  # function: type index
            section.unsigned()
        elif kind == 1:  # table: reference type, limits
            section.byte()
            section.limits()
        elif kind == 2:  # memory: limits
            section.limits()
        elif kind == _GLOBAL_KIND:  # global: value type, mutability
            section.byte()
            section.byte()
            count += 1
        else:
            raise ModuleFormatError(f"unknown import kind {kind}")
    return count


def _constant_globals(section: _Reader) -> list[int | None]:
    """Each defined global's value when it is an ``i32.const``, else None."""
    out: list[int | None] = []
    for _ in range(section.unsigned()):
        section.byte()  # value type
        section.byte()  # mutability
        opcode = section.byte()
        value: int | None = None
        if opcode == _I32_CONST:
            value = section.signed()
        elif opcode == _I64_CONST:
            section.signed()
        elif opcode in _FLOAT_CONST_BYTES:
            section.pos += _FLOAT_CONST_BYTES[opcode]
        elif opcode == _GLOBAL_GET:
            section.unsigned()
        else:
            raise ModuleFormatError(f"unsupported global initializer opcode {opcode:#x}")
        if section.byte() != _END:
            raise ModuleFormatError("unsupported global initializer")
        out.append(value)
    return out


def abi_version(wasm: bytes) -> tuple[int, int]:
    """(major, minor) of the OPA Wasm ABI ``wasm`` was compiled for."""
    if wasm[:4] != _MAGIC:
        raise ModuleFormatError("not a Wasm module")
    reader = _Reader(wasm, 8)
    imported = 0
    defined: list[int | None] = []
    exported: dict[str, int] = {}
    while reader.pos < reader.end:
        section_id = reader.byte()
        size = reader.unsigned()
        if reader.pos + size > reader.end:
            raise ModuleFormatError("truncated Wasm module")
        section = _Reader(wasm, reader.pos, reader.pos + size)
        reader.pos += size
        if section_id == _IMPORT:
            imported = _imported_globals(section)
        elif section_id == _GLOBAL:
            defined = _constant_globals(section)
        elif section_id == _EXPORT:
            for _ in range(section.unsigned()):
                name = section.name()
                kind = section.byte()
                index = section.unsigned()
                if kind == _GLOBAL_KIND and name in _NAMES:
                    exported[name] = index
    versions: list[int] = []
    for name in _NAMES:
        if name not in exported:
            raise ModuleFormatError(f"the module does not export {name}")
        position = exported[name] - imported
        value = defined[position] if 0 <= position < len(defined) else None
        if value is None:
            raise ModuleFormatError(f"{name} is not a constant global of the module")
        versions.append(value)
    return versions[0], versions[1]
