"""Reading OPA values straight from Wasm linear memory, without serialising them.

The layouts are those of the pinned OPA's Wasm runtime (``wasm/src/value.h``,
wasm32: pointers and ``size_t`` are 4 bytes). Walking a value here costs a
few struct reads per node, where ``opa_value_dump`` would write text and
Python would parse it back; and it lets the host recognise a value by its
address (a resource object a rule put into a relation is the very object the
host parsed, so it is identified without being read at all).
"""

from __future__ import annotations

import ctypes
import struct
from typing import Any

from engine.wasm import values

NULL, BOOLEAN, NUMBER, STRING, ARRAY, OBJECT, SET = 1, 2, 3, 4, 5, 6, 7
STRING_INTERNED, BOOLEAN_INTERNED = 8, 9
_NUMBER_INT, _NUMBER_REF = 1, 2

_U32 = struct.Struct("<I")
_2U32 = struct.Struct("<II")
_3U32 = struct.Struct("<III")
_4U32 = struct.Struct("<IIII")
_6U32 = struct.Struct("<IIIIII")
_I64 = struct.Struct("<q")
_WORDS: dict[int, struct.Struct] = {}
"""``n`` little-endian 32-bit words, by ``n`` (an object's or set's bucket count)."""


def _words(n: int) -> struct.Struct:
    found = _WORDS.get(n)
    if found is None:
        found = _WORDS[n] = struct.Struct(f"<{n}I")
    return found


class MemoryReadError(Exception):
    """The memory at an address does not hold an OPA value."""


class ReadBudgetExceeded(Exception):
    """The value's text could be longer than :meth:`ValueReader.read_within` allows."""


_STRING_HEAD = struct.Struct("<BBxxII")
"""``opa_string_t`` (wasm32): type, ``free`` flag, length, pointer to the bytes."""
_NUMBER_REF_HEAD = struct.Struct("<BBxxxxxxIIBxxx")
"""``opa_number_t`` holding a reference: type, repr, then the union at offset 8
(``opa_number_ref_t``: pointer, length, ``free`` flag), 24 bytes in all."""
_BOOLEAN = struct.Struct("<BB")
"""``opa_boolean_t``: type, value."""
STRING_HEAD_SIZE = _STRING_HEAD.size
NUMBER_REF_HEAD_SIZE = _NUMBER_REF_HEAD.size


def string_block(addr: int, data: bytes) -> bytes:
    """An ``opa_string_t`` to be placed at ``addr`` with its UTF-8 bytes right
    after it, in one allocation: ``free`` is 0, so freeing the string frees
    that one block (``opa_string_free`` frees ``v`` only when the flag is set)."""
    return _STRING_HEAD.pack(STRING, 0, len(data), addr + STRING_HEAD_SIZE) + data


def number_ref_block(addr: int, text: bytes) -> bytes:
    """An ``opa_number_t`` referencing the number literal ``text`` placed right
    after it, in one allocation (the reference's ``free`` flag is 0)."""
    head = _NUMBER_REF_HEAD.pack(NUMBER, _NUMBER_REF, addr + NUMBER_REF_HEAD_SIZE, len(text), 0)
    return head + text


def boolean_block(value: bool) -> bytes:
    """An ``opa_boolean_t``."""
    return _BOOLEAN.pack(BOOLEAN, value)


class ValueReader:
    """Reads values from a snapshot view of one instance's memory.

    The view is valid until the memory grows: make a new reader after any
    call into Wasm that may allocate.
    """

    def __init__(self, base: int, size: int) -> None:
        self._mem = memoryview((ctypes.c_ubyte * size).from_address(base)).cast("B")
        self._base = base
        self._size = size

    @property
    def base(self) -> int:
        """The host address of the memory's first byte."""
        return self._base

    def kind(self, addr: int) -> int:
        """The value's type tag, interned strings and booleans folded in."""
        tag = self._mem[addr]
        return STRING if tag == STRING_INTERNED else BOOLEAN if tag == BOOLEAN_INTERNED else tag

    def string(self, addr: int) -> str:
        """The string at ``addr``."""
        length, ptr = _2U32.unpack_from(self._mem, addr + 4)
        if ptr + length > self._size:
            raise MemoryReadError(f"string at {addr} runs past the end of memory")
        return str(self._mem[ptr : ptr + length], "utf-8")

    def array(self, addr: int) -> list[int]:
        """Addresses of the elements of the array at ``addr``."""
        elems, length = _2U32.unpack_from(self._mem, addr + 4)
        if not length:
            return []
        words = struct.unpack_from(f"<{2 * length}I", self._mem, elems)
        return list(words[1::2])

    def pairs_and_triples(self, addr: int) -> list[tuple[int, ...]] | None:
        """Element addresses of an array of 2- and 3-element arrays (the items of
        a relation side); None when ``addr`` holds anything else."""
        mem = self._mem
        if mem[addr] != ARRAY:
            return None
        out: list[tuple[int, ...]] = []
        for item in self.array(addr):
            if mem[item] != ARRAY:
                return None
            elems, length = _2U32.unpack_from(mem, item + 4)
            if length == 2:
                out.append(_4U32.unpack_from(mem, elems)[1::2])
            elif length == 3:
                out.append(_6U32.unpack_from(mem, elems)[1::2])
            else:
                return None
        return out

    def object(self, addr: int) -> list[tuple[int, int]]:
        """(key address, value address) of every entry of the object at ``addr``."""
        mem = self._mem
        unpack = _3U32.unpack_from
        buckets, n, length = unpack(mem, addr + 4)
        out: list[tuple[int, int]] = []
        if not length:
            return out
        for elem in _words(n).unpack_from(mem, buckets):
            while elem:
                key, value, elem = unpack(mem, elem)
                out.append((key, value))
        return out

    def fields(self, addr: int) -> dict[str, int]:
        """String-keyed entries of the object at ``addr``: key → value address."""
        return {self.string(k): v for k, v in self.object(addr) if self.kind(k) == STRING}

    def set_members(self, addr: int) -> list[int]:
        """Addresses of the members of the set at ``addr``."""
        mem = self._mem
        buckets, n, length = _3U32.unpack_from(mem, addr + 4)
        out: list[int] = []
        if not length:
            return out
        for elem in _words(n).unpack_from(mem, buckets):
            while elem:
                member, elem = _2U32.unpack_from(mem, elem)
                out.append(member)
        return out

    def read(self, addr: int) -> Any:
        """The whole value at ``addr`` as a Python value (:mod:`engine.wasm.values`)."""
        if not 0 < addr < self._size:
            raise MemoryReadError(f"address {addr} is outside memory")
        mem = self._mem
        tag = mem[addr]
        if tag in (STRING, STRING_INTERNED):
            length, ptr = _2U32.unpack_from(mem, addr + 4)
            if ptr + length > self._size:
                raise MemoryReadError(f"string at {addr} runs past the end of memory")
            return str(mem[ptr : ptr + length], "utf-8")
        if tag == ARRAY:
            return [self.read(a) for a in self.array(addr)]
        if tag == OBJECT:
            return {values.hashable_key(self.read(k)): self.read(v) for k, v in self.object(addr)}
        if tag == NUMBER:
            return self._number(addr)
        if tag == NULL:
            return None
        if tag in (BOOLEAN, BOOLEAN_INTERNED):
            return bool(self._mem[addr + 1])
        if tag == SET:
            return values.Set(self.read(a) for a in self.set_members(addr))
        raise MemoryReadError(f"no OPA value at address {addr} (type tag {tag})")

    def read_all(self, addrs: list[int]) -> list[Any]:
        """:meth:`read` of every address in ``addrs``; strings (the usual keys)
        are decoded in place."""
        mem, size, read = self._mem, self._size, self.read
        pointer = _2U32.unpack_from
        out = []
        for addr in addrs:
            if 0 < addr < size and (mem[addr] == STRING or mem[addr] == STRING_INTERNED):
                length, ptr = pointer(mem, addr + 4)
                if ptr + length > size:
                    raise MemoryReadError(f"string at {addr} runs past the end of memory")
                out.append(str(mem[ptr : ptr + length], "utf-8"))
            else:
                out.append(read(addr))
        return out

    def _number(self, addr: int) -> int | float | Any:
        repr_ = self._mem[addr + 1]
        if repr_ == _NUMBER_INT:
            return _I64.unpack_from(self._mem, addr + 8)[0]
        if repr_ == _NUMBER_REF:
            ptr, length = _2U32.unpack_from(self._mem, addr + 8)
            return values.parse_number(bytes(self._mem[ptr : ptr + length]).decode("ascii"))
        raise MemoryReadError(f"number at {addr} has an unknown representation {repr_}")

    def read_within(self, addr: int, budget: int) -> Any:
        """:meth:`read`, refusing with :class:`ReadBudgetExceeded` a value whose
        Rego text (as ``opa_value_dump`` writes it) might be longer than
        ``budget`` bytes. The count is an upper bound, not the exact size (a
        string byte counts as 6, as if escaped), and it stops the read as soon
        as it is passed, so a huge value is refused without being read."""
        return self._counted(addr, budget)[1]

    def _counted(self, addr: int, left: int) -> tuple[int, Any]:
        """(budget left, value at ``addr``); see :meth:`read_within`. A
        container's length is charged before its elements are listed."""
        mem = self._mem
        if not 0 < addr < self._size:
            raise MemoryReadError(f"address {addr} is outside memory")
        tag = self.kind(addr)
        if tag == STRING:
            left -= 6 * _2U32.unpack_from(mem, addr + 4)[0] + 2
        elif tag == ARRAY:
            left -= 3 * _2U32.unpack_from(mem, addr + 4)[1] + 2  # separator, one byte
        elif tag in (OBJECT, SET):
            left -= 4 * _3U32.unpack_from(mem, addr + 4)[2] + 5  # separator and ": "
        elif tag == NUMBER:
            ref = mem[addr + 1] == _NUMBER_REF
            left -= _2U32.unpack_from(mem, addr + 8)[1] if ref else 20
        else:
            left -= 5  # null, true, false
        if left < 0:
            raise ReadBudgetExceeded
        counted = self._counted
        if tag == ARRAY:
            out = []
            for elem in self.array(addr):
                left, value = counted(elem, left)
                out.append(value)
            return left, out
        if tag == OBJECT:
            obj = {}
            for key_addr, value_addr in self.object(addr):
                left, key = counted(key_addr, left)
                left, obj[values.hashable_key(key)] = counted(value_addr, left)
            return left, obj
        if tag == SET:
            members = []
            for member in self.set_members(addr):
                left, value = counted(member, left)
                members.append(value)
            return left, values.Set(members)
        return left, self.read(addr)
