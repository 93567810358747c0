"""The Rego value model on the Python side of the Wasm boundary.

Rego values map to Python as: null → None, booleans → bool, numbers → int
(integers of any size) or float (a Decimal where a float would overflow),
strings → str, arrays → list, objects → dict, sets → :class:`Set`.
Object keys that are not strings keep their Rego type (arrays become tuples,
booleans :class:`BoolKey` and objects :class:`ObjectKey`, so they can be dict
keys).

Values cross the boundary as text: the Wasm runtime dumps values in Rego
syntax (``opa_value_dump``: sets as ``{1, 2}`` / ``set()``, non-string object
keys) and parses the same syntax back (``opa_value_parse``).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

import orjson

from engine.core.address_space import ORJSON_WRITE_ROOM, address_space_left, room_for
from engine.wasm.deep_values import deeply

Value = Any  # None | bool | int | float | Decimal | str | list | dict | Set | tuple


class ValueError_(ValueError):
    """Raised for text that is not a Rego value, or a Python value with no Rego form."""


class Set:
    """An immutable Rego set: unique members (Rego equality), kept in Rego order."""

    __slots__ = ("_items", "_keys")

    def __init__(self, items: Iterable[Value] = ()) -> None:
        unique: dict[Any, Value] = {}
        for item in items:
            unique.setdefault(freeze(item), item)
        self._keys = frozenset(unique)
        self._items: tuple[Value, ...] = tuple(sort_values(unique.values()))

    def __iter__(self) -> Iterator[Value]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, item: object) -> bool:
        return freeze(item) in self._keys

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Set) and self._keys == other._keys

    def __hash__(self) -> int:
        return hash(self._keys)

    def __repr__(self) -> str:
        return f"Set({list(self._items)!r})"

    @property
    def items(self) -> tuple[Value, ...]:
        """Members in Rego order."""
        return self._items


class BoolKey:
    """A boolean used as an object key (in Python ``True == 1`` would merge it with 1)."""

    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoolKey) and other.value is self.value

    def __hash__(self) -> int:
        return hash(("bool-key", self.value))

    def __repr__(self) -> str:
        return f"BoolKey({self.value})"


class ObjectKey:
    """An object used as an object key (a dict is not hashable); Rego equality."""

    __slots__ = ("_frozen", "value")

    def __init__(self, value: dict[Any, Value]) -> None:
        self.value = value
        self._frozen = freeze(value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectKey) and other._frozen == self._frozen

    def __hash__(self) -> int:
        return hash(self._frozen)

    def __repr__(self) -> str:
        return f"ObjectKey({self.value!r})"


def freeze(value: Value) -> Any:
    """A hashable key with Rego equality: ``1 == 1.0``, ``true != 1``."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, BoolKey):
        return ("bool", value.value)
    if isinstance(value, ObjectKey):
        return value._frozen
    if isinstance(value, (int, float, Decimal)):
        return ("num", value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ("arr", tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("obj", frozenset((freeze(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, Set):
        return ("set", value._keys)
    raise ValueError_(f"not a Rego value: {type(value).__name__}")


_TYPE_ORDER = {
    type(None): 0,
    bool: 1,
    BoolKey: 1,
    int: 2,
    float: 2,
    Decimal: 2,
    str: 3,
    list: 4,
    tuple: 4,
    dict: 5,
    ObjectKey: 5,
    Set: 6,
}


def type_name(value: Value) -> str:
    """The Rego type name of a value, as ``type_name`` reports it."""
    return ["null", "boolean", "number", "string", "array", "object", "set"][
        _TYPE_ORDER[type(value)]
    ]


def compare(a: Value, b: Value) -> int:
    """Rego's total order: null < boolean < number < string < array < object < set."""
    a = a.value if isinstance(a, (BoolKey, ObjectKey)) else a
    b = b.value if isinstance(b, (BoolKey, ObjectKey)) else b
    ta, tb = _TYPE_ORDER[type(a)], _TYPE_ORDER[type(b)]
    if ta != tb:
        return -1 if ta < tb else 1
    if ta in (1, 2, 3):
        return (a > b) - (a < b)
    if ta == 0:
        return 0
    if ta == 4:
        for x, y in zip(a, b, strict=False):
            c = compare(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    if ta == 5:
        ka, kb = sort_values(a), sort_values(b)
        for x, y in zip(ka, kb, strict=False):
            c = compare(x, y) or compare(a[x], b[y])
            if c:
                return c
        return (len(ka) > len(kb)) - (len(ka) < len(kb))
    ia, ib = a.items, b.items
    for x, y in zip(ia, ib, strict=False):
        c = compare(x, y)
        if c:
            return c
    return (len(ia) > len(ib)) - (len(ia) < len(ib))


def sort_values(values: Iterable[Value]) -> list[Value]:
    """Values sorted in Rego order."""
    return sorted(values, key=functools.cmp_to_key(compare))


# ---------------------------------------------------------------- Rego text → Python


def parse(text: bytes | str) -> Value:
    """Parse a value in Rego syntax, as ``opa_value_dump`` writes it."""
    data = text.decode("utf-8") if isinstance(text, bytes) else text
    try:
        # The stdlib scanner keeps integers exact (orjson rounds big ones).
        return _JSON.decode(data)
    except json.JSONDecodeError:
        pass  # sets, non-string keys: use the full parser
    parser = _Parser(data)
    value = parser.value()
    parser.skip_ws()
    if parser.pos != len(parser.text):
        raise ValueError_(f"trailing text at offset {parser.pos}")
    return value


def _no_constant(name: str) -> None:
    raise ValueError_(f"{name} is not a Rego value")


def parse_number(text: str) -> int | float | Decimal:
    """A number literal as int, float, or Decimal when a float would overflow."""
    if "." not in text and "e" not in text and "E" not in text:
        return int(text)
    f = float(text)
    return Decimal(text) if math.isinf(f) else f


_JSON = json.JSONDecoder(parse_float=parse_number, parse_constant=_no_constant)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_ws(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        self.pos = pos

    def expect(self, s: str) -> None:
        if not self.text.startswith(s, self.pos):
            raise ValueError_(f"expected {s!r} at offset {self.pos}")
        self.pos += len(s)

    def value(self) -> Value:
        self.skip_ws()
        if self.pos >= len(self.text):
            raise ValueError_("unexpected end of value")
        c = self.text[self.pos]
        if c == '"':
            return self.string()
        if c == "[":
            return self.array()
        if c == "{":
            return self.brace()
        if self.text.startswith("set()", self.pos):
            self.pos += 5
            return Set()
        for word, val in (("null", None), ("true", True), ("false", False)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return val
        return self.number()

    def string(self) -> str:
        start = self.pos
        pos = start + 1
        text = self.text
        while True:
            end = text.find('"', pos)
            if end < 0:
                raise ValueError_(f"unterminated string at offset {start}")
            backslashes = 0
            i = end - 1
            while text[i] == "\\":
                backslashes += 1
                i -= 1
            if backslashes % 2 == 0:
                break
            pos = end + 1
        self.pos = end + 1
        return json.loads(text[start : end + 1])

    def number(self) -> int | float | Decimal:
        start = self.pos
        text = self.text
        pos = start
        while pos < len(text) and text[pos] in "+-0123456789.eE":
            pos += 1
        if pos == start:
            raise ValueError_(f"unexpected character {text[start]!r} at offset {start}")
        self.pos = pos
        return parse_number(text[start:pos])

    def array(self) -> list[Value]:
        self.expect("[")
        out: list[Value] = []
        self.skip_ws()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return out
        while True:
            out.append(self.value())
            self.skip_ws()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            self.expect("]")
            return out

    def brace(self) -> dict[Any, Value] | Set:
        self.expect("{")
        self.skip_ws()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return {}
        first = self.value()
        self.skip_ws()
        if self.text.startswith(":", self.pos):
            obj: dict[Any, Value] = {}
            key = first
            while True:
                self.expect(":")
                obj[hashable_key(key)] = self.value()
                self.skip_ws()
                if self.text.startswith(",", self.pos):
                    self.pos += 1
                    key = self.value()
                    self.skip_ws()
                    continue
                self.expect("}")
                return obj
        members = [first]
        while self.text.startswith(",", self.pos):
            self.pos += 1
            members.append(self.value())
            self.skip_ws()
        self.expect("}")
        return Set(members)


def hashable_key(key: Value) -> Any:
    """An object key usable in a dict: arrays become tuples, booleans
    :class:`BoolKey`, objects :class:`ObjectKey`."""
    if isinstance(key, bool):
        return BoolKey(key)
    if isinstance(key, list):
        return tuple(hashable_key(k) for k in key)
    if isinstance(key, dict):
        return ObjectKey(key)
    return key


# ---------------------------------------------------------------- Python → Rego text


def dumps(value: Value, *, finite: bool = False) -> bytes:
    """Serialise a value in Rego syntax, as ``opa_value_parse`` reads it.

    ``finite`` says the caller knows ``value`` holds no infinite or NaN float
    (values read from Wasm or from a loaded State), which keeps the fast path
    open to values containing ``null``.
    """
    # Under an address-space cap orjson crashes the process when an
    # allocation fails; the Python writer raises MemoryError instead.
    if not isinstance(value, (list, dict)) or _orjson_has_room(value):
        try:
            text = orjson.dumps(value)
        except TypeError:
            pass  # sets, non-string keys, tuples as keys, big ints, Decimals
        else:
            if finite or b"null" not in text:
                return text
            # orjson writes inf and nan as null; the full writer refuses them.
    out: list[str] = []
    _write(value, out)
    return "".join(out).encode("utf-8")


def _orjson_has_room(value: Value) -> bool:
    """Whether the address space left (under ``RLIMIT_AS``) holds what orjson
    needs to write ``value``: four times an estimate of its text, which is
    summed (iteratively, stopping once past the room) only under a cap with
    less than :data:`ORJSON_WRITE_ROOM` left."""
    left = address_space_left()
    if left is None or left >= ORJSON_WRITE_ROOM:
        return True
    budget = (left - _ORJSON_BASE_ROOM) // 4
    stack: list[Value] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            budget -= (len(item) if item.isascii() else 4 * len(item)) + 3
        elif isinstance(item, dict):
            budget -= 2
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            budget -= 2
            stack.extend(item)
        else:
            budget -= 24
        if budget < 0:
            return False
    return True


_ORJSON_BASE_ROOM = 64 * 1024 * 1024
"""Address space kept free beside orjson's buffers when checking its room."""


def _write(value: Value, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, BoolKey):
        out.append("true" if value.value else "false")
    elif isinstance(value, ObjectKey):
        _write(value.value, out)
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        if math.isinf(value) or math.isnan(value):
            raise ValueError_(f"number {value} has no Rego form")
        out.append(repr(value))
    elif isinstance(value, Decimal):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(orjson.dumps(value).decode())
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, v in enumerate(value):
            if i:
                out.append(",")
            _write(v, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(",")
            _write(k, out)
            out.append(":")
            _write(v, out)
        out.append("}")
    elif isinstance(value, Set):
        if not len(value):
            out.append("set()")
            return
        out.append("{")
        for i, v in enumerate(value):
            if i:
                out.append(",")
            _write(v, out)
        out.append("}")
    else:
        raise ValueError_(f"not a Rego value: {type(value).__name__}")


# ---------------------------------------------------------------- Python → JSON


def to_json(value: Value) -> Any:
    """The JSON form OPA reports: sets become sorted arrays, keys become strings."""
    if isinstance(value, Set):
        return [to_json(v) for v in value]
    if isinstance(value, ObjectKey):
        return to_json(value.value)
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {_json_key(k): to_json(v) for k, v in sorted_items(value)}
    if isinstance(value, Decimal):
        return float(value)
    return value


def sorted_items(obj: dict[Any, Value]) -> list[tuple[Any, Value]]:
    """Object items in Rego key order."""
    return [(k, obj[k]) for k in sort_values(obj)]


def _json_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, BoolKey):
        return "true" if key.value else "false"
    return orjson.dumps(to_json(list(key) if isinstance(key, tuple) else key)).decode()


def dumps_json(value: Value, *, indent: bool = False) -> bytes:
    """JSON text of a value as OPA reports it, with sorted keys (deterministic);
    values nested past Python's recursion limit are written by
    :func:`~engine.wasm.deep_values.deeply` (deeper still: :class:`ValueTooDeep`)."""
    return deeply(_dumps_json, value, indent)


def _dumps_json(value: Value, indent: bool) -> bytes:
    option = orjson.OPT_SORT_KEYS | (orjson.OPT_INDENT_2 if indent else 0)
    if not room_for(ORJSON_WRITE_ROOM):  # orjson would crash on a failed allocation
        return _dumps_json_stdlib(value, indent)
    try:
        # Plain JSON values (string keys, no sets, Decimals or big integers)
        # need no conversion: orjson sorts string keys in Rego's order itself.
        return orjson.dumps(value, option=option)
    except TypeError:
        pass
    try:
        return orjson.dumps(to_json(value), option=option)
    except TypeError:  # integers beyond 64 bits
        return _dumps_json_stdlib(value, indent)


def _dumps_json_stdlib(value: Value, indent: bool) -> bytes:
    """:func:`dumps_json` by Python's writer (any integer; MemoryError, not a crash)."""
    return json.dumps(
        to_json(value),
        sort_keys=True,
        indent=2 if indent else None,
        separators=None if indent else (",", ":"),
        ensure_ascii=False,
    ).encode()
