"""A Wasm module's binary form: its sections, imports, constant globals, exports,
function names and code bodies, read and written back, and the instructions of
a function body.

Only what the engine reads and rewrites needs (:mod:`engine.wasm.read_tracing`,
:mod:`engine.wasm.builtin_routing`, :mod:`engine.wasm.module_abi`, the memory
the data segments reach):
sections are kept as bytes, the code section is split into bodies, and the
instruction reader knows the opcodes of Wasm 1.0 (MVP) plus the saturating
and bulk-memory prefixes, which is what OPA's compiler and its C runtime
emit. Anything else is a :class:`WasmFormatError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

MAGIC = b"\x00asm\x01\x00\x00\x00"
CUSTOM, IMPORT, GLOBAL, EXPORT, CODE, DATA = 0, 2, 6, 7, 10, 11
_SECTION_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 10, 11)
"""Where each non-custom section goes (the data count section, 12, before code)."""


class WasmFormatError(Exception):
    """The bytes are not a Wasm module this reader understands."""


def _read_leb(data: bytes, pos: int) -> tuple[int, int, int]:
    """The bits of a LEB128 number at ``pos``: (value unsigned, its bit count,
    position after it)."""
    result = shift = 0
    while True:
        if pos >= len(data):
            raise WasmFormatError("a LEB128 number runs past the end")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, shift, pos


def read_uleb(data: bytes, pos: int) -> tuple[int, int]:
    """An unsigned LEB128 number at ``pos``: (value, position after it)."""
    result, _, pos = _read_leb(data, pos)
    return result, pos


def _skip_sleb(data: bytes, pos: int) -> int:
    while True:
        if pos >= len(data):
            raise WasmFormatError("a LEB128 number runs past the end")
        byte = data[pos]
        pos += 1
        if not byte & 0x80:
            return pos


def read_sleb(data: bytes, pos: int) -> tuple[int, int]:
    """A signed LEB128 number at ``pos``: (value, position after it)."""
    result, bits, pos = _read_leb(data, pos)
    if result >> (bits - 1) & 1:  # the sign bit: bit 6 of the last byte
        result -= 1 << bits
    return result, pos


def uleb(value: int) -> bytes:
    """``value`` (>= 0) as unsigned LEB128."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sleb(value: int) -> bytes:
    """``value`` as signed LEB128."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _name(data: bytes, pos: int) -> tuple[str, int]:
    length, pos = read_uleb(data, pos)
    if pos + length > len(data):
        raise WasmFormatError("a name runs past the end")
    return data[pos : pos + length].decode("utf-8", "replace"), pos + length


@dataclass
class Section:
    """One section: its id and its payload (the bytes after the size)."""

    id: int
    payload: bytes

    @property
    def custom_name(self) -> str | None:
        """A custom section's name (None for the others)."""
        return _name(self.payload, 0)[0] if self.id == CUSTOM else None


def sections(wasm: bytes) -> list[Section]:
    """The sections of ``wasm``, in order."""
    if not wasm.startswith(MAGIC):
        raise WasmFormatError("not a Wasm 1.0 module")
    out: list[Section] = []
    pos = len(MAGIC)
    while pos < len(wasm):
        sid = wasm[pos]
        size, pos = read_uleb(wasm, pos + 1)
        if pos + size > len(wasm):
            raise WasmFormatError(f"section {sid} runs past the end of the module")
        out.append(Section(sid, wasm[pos : pos + size]))
        pos += size
    return out


def encode(module: list[Section]) -> bytes:
    """The module made of ``module``'s sections."""
    parts = [MAGIC]
    for section in module:
        parts += [bytes([section.id]), uleb(len(section.payload)), section.payload]
    return b"".join(parts)


def imported_functions(module: list[Section]) -> list[tuple[str, str]]:
    """(module, name) of every imported function, in function-index order."""
    return _imports(module)[0]


def _imports(module: list[Section]) -> tuple[list[tuple[str, str]], int]:
    """Imported functions (module, name) and the number of imported globals."""
    out: list[tuple[str, str]] = []
    globals_ = 0
    for section in module:
        if section.id != IMPORT:
            continue
        data = section.payload
        count, pos = read_uleb(data, 0)
        for _ in range(count):
            mod, pos = _name(data, pos)
            name, pos = _name(data, pos)
            kind = data[pos]
            pos += 1
            if kind == 0:  # function: type index
                _, pos = read_uleb(data, pos)
                out.append((mod, name))
            elif kind == 1:  # table: reftype, limits
                pos = _skip_limits(data, pos + 1)
            elif kind == 2:  # memory: limits
                pos = _skip_limits(data, pos)
            elif kind == 3:  # global: valtype, mutability
                pos += 2
                globals_ += 1
            else:
                raise WasmFormatError(f"unknown import kind {kind}")
    return out, globals_


def imported_global_count(module: list[Section]) -> int:
    """How many globals the module imports (they come first in the global index space)."""
    return _imports(module)[1]


_FLOAT_CONST_BYTES = {0x43: 4, 0x44: 8}


def constant_globals(module: list[Section]) -> list[int | None]:
    """Each defined global's value when its initializer is an ``i32.const``, else None."""
    out: list[int | None] = []
    for section in module:
        if section.id != GLOBAL:
            continue
        data = section.payload
        count, pos = read_uleb(data, 0)
        for _ in range(count):
            opcode = _byte(data, pos + 2)  # after the value type and mutability
            pos += 3
            value: int | None = None
            if opcode == I32_CONST:
                value, pos = read_sleb(data, pos)
            elif opcode == 0x42:  # i64.const
                pos = _skip_sleb(data, pos)
            elif opcode in _FLOAT_CONST_BYTES:
                pos += _FLOAT_CONST_BYTES[opcode]
            elif opcode == GLOBAL_GET:
                _, pos = read_uleb(data, pos)
            else:
                raise WasmFormatError(f"unsupported global initializer opcode {opcode:#x}")
            if _byte(data, pos) != END:
                raise WasmFormatError("unsupported global initializer")
            pos += 1
            out.append(value)
    return out


def exports(module: list[Section]) -> dict[str, tuple[int, int]]:
    """Each export's (kind, index) by name (kind 0 a function, 3 a global)."""
    out: dict[str, tuple[int, int]] = {}
    for section in module:
        if section.id != EXPORT:
            continue
        data = section.payload
        count, pos = read_uleb(data, 0)
        for _ in range(count):
            name, pos = _name(data, pos)
            kind = _byte(data, pos)
            index, pos = read_uleb(data, pos + 1)
            out[name] = (kind, index)
    return out


def _byte(data: bytes, pos: int) -> int:
    if pos >= len(data):
        raise WasmFormatError("a section runs past its end")
    return data[pos]


def _section(module: list[Section], sid: int) -> Section:
    """The section ``sid`` of ``module``, added empty where it belongs when missing."""
    for section in module:
        if section.id == sid:
            return section
    made = Section(sid, uleb(0))
    rank = _SECTION_ORDER.index(sid)
    at = len(module)
    for i, section in enumerate(module):
        if section.id != CUSTOM and _SECTION_ORDER.index(section.id) > rank:
            at = i
            break
    module.insert(at, made)
    return made


def _append_entries(section: Section, entries: list[bytes]) -> int:
    """Append ``entries`` to a vector section; returns the count before them."""
    count, pos = read_uleb(section.payload, 0)
    section.payload = uleb(count + len(entries)) + section.payload[pos:] + b"".join(entries)
    return count


def add_exported_global(module: list[Section], name: str) -> int:
    """Add a mutable i32 global, initially 0, exported as ``name``; returns its index."""
    _, imported = _imports(module)
    index = imported + _append_entries(
        _section(module, GLOBAL), [bytes([0x7F, 0x01, I32_CONST, 0x00, END])]
    )
    encoded = name.encode()
    export = uleb(len(encoded)) + encoded + b"\x03" + uleb(index)  # kind 3: a global
    _append_entries(_section(module, EXPORT), [export])
    return index


def _skip_limits(data: bytes, pos: int) -> int:
    flags = data[pos]
    _, pos = read_uleb(data, pos + 1)
    if flags & 1:
        _, pos = read_uleb(data, pos)
    return pos


def function_names(module: list[Section]) -> dict[int, str]:
    """Function index → name, from the ``name`` custom section (empty without one)."""
    for section in module:
        if section.custom_name != "name":
            continue
        data = section.payload
        _, pos = _name(data, 0)
        while pos < len(data):
            sub = data[pos]
            size, pos = read_uleb(data, pos + 1)
            if sub == 1:
                names: dict[int, str] = {}
                count, at = read_uleb(data, pos)
                for _ in range(count):
                    index, at = read_uleb(data, at)
                    names[index], at = _name(data, at)
                return names
            pos += size
    return {}


def data_end(module: list[Section]) -> int | None:
    """The highest end offset of the module's active data segments (0 when
    there are none); None when an offset is not an ``i32.const``."""
    end = 0
    for section in module:
        if section.id != DATA:
            continue
        data = section.payload
        count, pos = read_uleb(data, 0)
        for _ in range(count):
            flags, pos = read_uleb(data, pos)
            if flags == 2:
                _, pos = read_uleb(data, pos)  # memory index
            offset = 0
            if flags in (0, 2):
                if pos >= len(data) or data[pos] != I32_CONST:
                    return None
                offset, pos = read_sleb(data, pos + 1)
                offset &= 0xFFFFFFFF  # an address: i32 read as unsigned
                pos += 1  # end
            length, pos = read_uleb(data, pos)
            pos += length
            end = max(end, offset + length)
    return end


@dataclass
class Body:
    """One function body: its local declarations (raw) and its instructions
    (the expression, ``end`` included)."""

    locals: bytes
    code: bytes


def code_bodies(section: Section) -> list[Body]:
    """The function bodies of the code section."""
    data = section.payload
    count, pos = read_uleb(data, 0)
    out: list[Body] = []
    for _ in range(count):
        size, pos = read_uleb(data, pos)
        end = pos + size
        groups, at = read_uleb(data, pos)
        for _ in range(groups):
            _, at = read_uleb(data, at)
            at += 1  # value type
        out.append(Body(data[pos:at], data[at:end]))
        pos = end
    return out


def code_section(bodies: list[Body]) -> Section:
    """A code section holding ``bodies``."""
    parts = [uleb(len(bodies))]
    for body in bodies:
        parts += [uleb(len(body.locals) + len(body.code)), body.locals, body.code]
    return Section(CODE, b"".join(parts))


@dataclass(frozen=True)
class Instruction:
    """One instruction of a body: opcode, where it starts and ends, and its
    first immediate (a local, label, function index or constant; 0 when none)."""

    op: int
    start: int
    end: int
    arg: int = 0


BLOCK, LOOP, IF, ELSE, END, BR, BR_IF = 0x02, 0x03, 0x04, 0x05, 0x0B, 0x0C, 0x0D
CALL, LOCAL_GET, LOCAL_SET, GLOBAL_GET, GLOBAL_SET = 0x10, 0x20, 0x21, 0x23, 0x24
I32_STORE, I32_CONST, I32_EQZ, I32_NE = 0x36, 0x41, 0x45, 0x47
I32_LT_U, I32_GE_U, I32_ADD, I32_AND = 0x49, 0x4F, 0x6A, 0x71

_NO_IMMEDIATE = frozenset([0x00, 0x01, 0x05, 0x0B, 0x0F, 0x1A, 0x1B, *range(0x45, 0xC5)])
_ONE_ULEB = frozenset([0x0C, 0x0D, 0x10, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26])
_MEMARG = frozenset(range(0x28, 0x3F))


def instructions(code: bytes) -> Iterator[Instruction]:
    """The instructions of a body's expression, in order."""
    pos, size = 0, len(code)
    while pos < size:
        start, op = pos, code[pos]
        pos += 1
        arg = 0
        if op in _NO_IMMEDIATE:
            pass
        elif op in (BLOCK, LOOP, IF):
            if code[pos] == 0x40 or code[pos] >= 0x6F:
                pos += 1
            else:
                _, pos = read_sleb(code, pos)
        elif op in _ONE_ULEB:
            arg, pos = read_uleb(code, pos)
        elif op == I32_CONST:
            arg, pos = read_sleb(code, pos)
        elif op == 0x42:
            pos = _skip_sleb(code, pos)
        elif op == 0x43:
            pos += 4
        elif op == 0x44:
            pos += 8
        elif op in _MEMARG:
            _, pos = read_uleb(code, pos)
            _, pos = read_uleb(code, pos)
        elif op in (0x3F, 0x40):
            pos += 1
        elif op == 0x0E:  # br_table
            count, pos = read_uleb(code, pos)
            for _ in range(count + 1):
                _, pos = read_uleb(code, pos)
        elif op == 0x11:  # call_indirect
            _, pos = read_uleb(code, pos)
            _, pos = read_uleb(code, pos)
        elif op == 0x1C:  # select with types
            count, pos = read_uleb(code, pos)
            pos += count
        elif op == 0xFC:
            sub, pos = read_uleb(code, pos)
            if sub <= 7:
                pass
            elif sub in (8, 10, 12, 14):
                _, pos = read_uleb(code, pos)
                _, pos = read_uleb(code, pos)
            elif sub in (9, 11, 13, 15, 16, 17):
                _, pos = read_uleb(code, pos)
            else:
                raise WasmFormatError(f"unknown instruction 0xfc {sub}")
        else:
            raise WasmFormatError(f"unknown instruction 0x{op:02x} at {start}")
        yield Instruction(op, start, pos, arg)
