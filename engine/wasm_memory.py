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

from engine import values

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


class ValueReader:
    """Reads values from a snapshot view of one instance's memory.

    The view is valid until the memory grows: make a new reader after any
    call into Wasm that may allocate.
    """

    def __init__(self, base: int, size: int) -> None:
        self._mem = memoryview((ctypes.c_ubyte * size).from_address(base)).cast("B")
        self._base = base
        self._size = size

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
        return {
            self.string(k): v for k, v in self.object(addr) if self.kind(k) == STRING
        }

    def set_members(self, addr: int) -> list[int]:
        """Addresses of the members of the set at ``addr``."""
        buckets, n, _length = _3U32.unpack_from(self._mem, addr + 4)
        out = []
        for head in struct.unpack_from(f"<{n}I", self._mem, buckets) if n else ():
            elem = head
            while elem:
                member, elem = _2U32.unpack_from(self._mem, elem)
                out.append(member)
        return out

    def read(self, addr: int) -> Any:
        """The whole value at ``addr`` as a Python value (:mod:`engine.values`)."""
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
            return {
                values.hashable_key(self.read(k)): self.read(v) for k, v in self.object(addr)
            }
        if tag == NUMBER:
            return self._number(addr)
        if tag == NULL:
            return None
        if tag in (BOOLEAN, BOOLEAN_INTERNED):
            return bool(self._mem[addr + 1])
        if tag == SET:
            return values.Set(self.read(a) for a in self.set_members(addr))
        raise MemoryReadError(f"no OPA value at address {addr} (type tag {tag})")

    def _number(self, addr: int) -> int | float | Any:
        repr_ = self._mem[addr + 1]
        if repr_ == _NUMBER_INT:
            return _I64.unpack_from(self._mem, addr + 8)[0]
        if repr_ == _NUMBER_REF:
            ptr, length = _2U32.unpack_from(self._mem, addr + 8)
            return values.parse_number(bytes(self._mem[ptr : ptr + length]).decode("ascii"))
        raise MemoryReadError(f"number at {addr} has an unknown representation {repr_}")
