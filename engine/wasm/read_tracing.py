"""An instrumented copy of a compiled policy module that records every value read.

OPA's planner compiles each dot or index access (``r.bucket``, ``xs[i]``,
and the value fetched for each key an iteration visits) to a call of the
runtime's ``opa_value_get(node, key)``. The copy made here starts that
function with a prologue that, when ``node`` lies in the address range the
host sets (the exported globals :data:`TRACE_FROM` and :data:`TRACE_TO`,
initially empty), appends the pair to a buffer in linear memory: ``node``
and ``key`` as two little-endian u32 (:data:`PAIR`) at the write pointer
:data:`TRACE_AT`, which then moves on by 8 bytes. Reads outside the range
(data, the relation index, values made during evaluation) are not recorded.
Only when the pointer has reached :data:`TRACE_END` does the prologue call
the host, through the module's own ``opa_builtin2`` import under a builtin
id no module uses (:data:`TRACE_BUILTIN_ID`), with the write pointer as its
first argument: the host takes the pairs written so far and answers where
writing starts again. The host takes the rest when the evaluation returns
(:class:`engine.wasm.host.PolicyInstance`, which also places the buffer
where no evaluation allocates). No import or function index shifts, and the
lookup itself goes on unchanged.

The copy also evaluates as OPA's topdown evaluator does where that changes
what is read: a function or complete rule whose every definition has the same
constant value (``f(x) if {...}`` with several bodies) stops at its first
success, skipping its later bodies and the rest of an iteration (topdown's
early exit), where the Wasm plan runs every body. The value is the same
either way. This is done on the plan's Wasm form, which the pinned OPA
compiler lays out as: one block per body starting by resetting the body's
result local, the result assigned once from a constant, then a block
assigning the function's return from it.
"""

from __future__ import annotations

import re
import struct

from engine.wasm import binary
from engine.wasm.binary import (
    BLOCK,
    BR,
    BR_IF,
    END,
    GLOBAL_GET,
    GLOBAL_SET,
    I32_ADD,
    I32_AND,
    I32_CONST,
    I32_EQZ,
    I32_GE_U,
    I32_LT_U,
    I32_NE,
    I32_STORE,
    IF,
    LOCAL_GET,
    LOCAL_SET,
    LOOP,
    Instruction,
    WasmFormatError,
)

TRACE_BUILTIN_ID = 0xFFFFFFF0
"""The builtin id the instrumented ``opa_value_get`` calls ``opa_builtin2``
with (OPA numbers a module's builtins from 0)."""

TRACE_FROM = "rego_engine_trace_from"
TRACE_TO = "rego_engine_trace_to"
"""The exported globals bounding the traced nodes' addresses: ``[from, to)``."""

TRACE_AT = "rego_engine_trace_at"
TRACE_END = "rego_engine_trace_end"
"""The exported globals of the read buffer: where the next pair is written, and
the end of the buffer (a pair is written only below it)."""

PAIR = struct.Struct("<II")
"""One recorded read in the buffer: the node's address, then the key's."""

BUFFER_BYTES = 256 * 1024
"""The read buffer's size: the host is called once per this many bytes of pairs."""

_PLANNED = re.compile(r"g\d+\.data\.")
"""Names of the functions the planner made from rules (``g0.data.pkg.rule``)."""

_ASSIGN_CONSTANT = re.compile(
    rb"\x02\x40\x02\x40\x20([\x80-\xff]*[\x00-\x7f])\x45\x0d\x00\x20\1\x41"
)
"""The bytes of an assign-once of a constant (:func:`_assigned_constant`): a
body without them is left as compiled without being decoded."""


def traced_module(wasm: bytes) -> bytes:
    """The module ``wasm`` with value reads recorded for the host and topdown's
    early exit; raises :class:`WasmFormatError` when it is not laid out as
    the pinned OPA compiler lays modules out."""
    module = binary.sections(wasm)
    imports = binary.imported_functions(module)
    try:
        builtin2 = imports.index(("env", "opa_builtin2"))
    except ValueError:
        raise WasmFormatError("the module does not import env.opa_builtin2") from None
    names = binary.function_names(module)
    get = next((i for i, n in names.items() if n == "opa_value_get"), None)
    if get is None or get < len(imports):
        raise WasmFormatError("the module has no opa_value_get function")
    position = next((i for i, s in enumerate(module) if s.id == binary.CODE), None)
    if position is None:
        raise WasmFormatError("the module has no code section")
    bodies = binary.code_bodies(module[position])
    body = bodies[get - len(imports)]
    low = binary.uleb(binary.add_exported_global(module, TRACE_FROM))
    high = binary.uleb(binary.add_exported_global(module, TRACE_TO))
    at = binary.uleb(binary.add_exported_global(module, TRACE_AT))
    end = binary.uleb(binary.add_exported_global(module, TRACE_END))
    position = next(i for i, s in enumerate(module) if s.id == binary.CODE)
    # if (node >= from) & (node < to) {
    #   if (at >= end) { at = opa_builtin2(TRACE_BUILTIN_ID, 0, at, 0) }  // the host drains
    #   store(at, node); store(at + 4, key); at += 8
    # }
    prologue = (
        bytes([LOCAL_GET, 0, GLOBAL_GET, *low, I32_GE_U])
        + bytes([LOCAL_GET, 0, GLOBAL_GET, *high, I32_LT_U, I32_AND])
        + bytes([IF, 0x40])
        + bytes([GLOBAL_GET, *at, GLOBAL_GET, *end, I32_GE_U, IF, 0x40, I32_CONST])
        + binary.sleb(TRACE_BUILTIN_ID - (1 << 32))
        + bytes([I32_CONST, 0, GLOBAL_GET, *at, I32_CONST, 0, binary.CALL])
        + binary.uleb(builtin2)
        + bytes([GLOBAL_SET, *at, END])
        + bytes([GLOBAL_GET, *at, LOCAL_GET, 0, I32_STORE, 2, 0])  # align 4, offset 0
        + bytes([GLOBAL_GET, *at, LOCAL_GET, 1, I32_STORE, 2, PAIR.size // 2])
        + bytes([GLOBAL_GET, *at, I32_CONST, PAIR.size, I32_ADD, GLOBAL_SET, *at])
        + bytes([END])
    )
    body.code = prologue + body.code
    for index, name in names.items():
        if index >= len(imports) and _PLANNED.match(name):
            planned = bodies[index - len(imports)]
            planned.code = with_early_exit(planned.code)
    module[position] = binary.code_section(bodies)
    return binary.encode(module)


def _top_level_blocks(instrs: list[Instruction]) -> list[tuple[int, int]]:
    """(index of ``block``, index of its ``end``) of each block at the top of a body."""
    out: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for i, ins in enumerate(instrs):
        if ins.op in (BLOCK, LOOP, IF):
            if depth == 0 and ins.op == BLOCK:
                start = i
            depth += 1
        elif ins.op == END:
            depth -= 1
            if depth == 0 and instrs[start].op == BLOCK:
                out.append((start, i))
    return out


def _assigned_constant(instrs: list[Instruction], at: int, local: int) -> int | None:
    """The constant an assign-once of ``local`` starting at ``at`` assigns
    (``block block local.get L i32.eqz br_if 0 local.get L i32.const C``)."""
    shape = [BLOCK, BLOCK, LOCAL_GET, I32_EQZ, BR_IF, LOCAL_GET, I32_CONST]
    window = instrs[at : at + len(shape)]
    if [ins.op for ins in window] != shape:
        return None
    if window[2].arg != local or window[5].arg != local or window[4].arg != 0:
        return None
    return window[6].arg


def _matching_end(instrs: list[Instruction], at: int) -> int:
    depth = 0
    for i in range(at, len(instrs)):
        op = instrs[i].op
        if op in (BLOCK, LOOP, IF):
            depth += 1
        elif op == END:
            depth -= 1
            if depth == 0:
                return i
    raise WasmFormatError("a block has no end")


def with_early_exit(code: bytes) -> bytes:
    """A planned function's body with topdown's early exit (see the module
    docstring); unchanged when the function is not one whose definitions
    all have one constant value, or not laid out as expected."""
    if not _ASSIGN_CONSTANT.search(code):
        return code
    instrs = list(binary.instructions(code))
    bodies: list[tuple[int, int, int]] = []  # (block, end, result local)
    returns: set[int] = set()
    constants: set[int] = set()
    for start, end in _top_level_blocks(instrs):
        first = instrs[start + 1 : start + 3]
        if [i.op for i in first] == [I32_CONST, LOCAL_SET] and first[0].arg == 0:
            bodies.append((start, end, first[1].arg))
            continue
        # The block assigning the return: local.get L, i32.eqz, br_if 0, assign-once R.
        head = instrs[start + 1 : start + 4]
        if [i.op for i in head] == [LOCAL_GET, I32_EQZ, BR_IF]:
            target = instrs[start + 6] if start + 6 < end else None
            if target is not None and target.op == LOCAL_GET:
                returns.add(target.arg)
                continue
        if [i.op for i in head] == [LOCAL_GET, I32_CONST, I32_NE]:
            continue  # the default rule's block
        return code  # else-chains or another layout: left as compiled
    if not bodies or len(returns) != 1 or len({local for _, _, local in bodies}) != 1:
        return code
    (ret,) = returns
    local = bodies[0][2]
    exits: list[tuple[int, int]] = []  # (end of an assign-once, depth inside its body)
    for start, end, _ in bodies:
        depth = 0
        assigned = False
        i = start + 1
        while i < end:
            ins = instrs[i]
            constant = _assigned_constant(instrs, i, local)
            if constant is not None:
                constants.add(constant)
                assigned = True
                close = _matching_end(instrs, i)
                exits.append((close, depth))
                i = close + 1
                continue
            if ins.op in (BLOCK, LOOP, IF):
                depth += 1
            elif ins.op == END:
                depth -= 1
            i += 1
        if not assigned:
            return code
    if len(constants) != 1:
        return code
    inserts: dict[int, bytes] = {}
    for n, (start, _, _) in enumerate(bodies):
        if n:  # a later body runs only while the return is undefined
            inserts[instrs[start].end] = bytes([LOCAL_GET]) + binary.uleb(ret) + bytes([BR_IF, 0])
    for close, depth in exits:  # the value is set: leave the body (and its loops)
        offset = instrs[close].end
        inserts[offset] = inserts.get(offset, b"") + bytes([BR]) + binary.uleb(depth)
    out = bytearray()
    last = 0
    for offset in sorted(inserts):
        out += code[last:offset] + inserts[offset]
        last = offset
    out += code[last:]
    return bytes(out)
