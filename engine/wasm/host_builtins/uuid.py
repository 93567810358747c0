"""UUID builtins: ``uuid.rfc4122`` (random version 4) and ``uuid.parse``.

``uuid.parse`` accepts the forms Go's ``github.com/google/uuid`` accepts
(36 characters with dashes, a ``urn:uuid:`` prefix, any one-character wrapper
such as braces, or 32 hex digits) and reports the fields OPA reports.
"""

from __future__ import annotations

import os
from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import freeze

_GREGORIAN_OFFSET = (2440587 - 2299160) * 86400 * 10_000_000  # 100 ns units to 1970
_HEX = frozenset(b"0123456789abcdefABCDEF")
_BYTE_OFFSETS = (0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34)
_VARIANTS = {0: "Invalid", 1: "RFC4122", 2: "Reserved", 3: "Microsoft", 4: "Future"}
_DOMAINS = {0: "Person", 1: "Group", 2: "Org"}


@register("uuid.rfc4122")
def rfc4122(k: Any) -> str:
    """A random version 4 UUID, the same for equal ``k`` within one evaluation."""
    memo = current_context().memo
    key = ("uuid.rfc4122", freeze(k))
    if key not in memo:
        raw = bytearray(os.urandom(16))
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        h = raw.hex()
        memo[key] = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
    return memo[key]


def _hex_pair(data: bytes, i: int) -> int | None:
    pair = data[i : i + 2]
    if len(pair) != 2 or pair[0] not in _HEX or pair[1] not in _HEX:
        return None
    return int(pair, 16)


def _all_bytes(pairs: list[int | None]) -> bytes | None:
    """The bytes of the hex pairs, or None when one was not hex."""
    found = [b for b in pairs if b is not None]
    return bytes(found) if len(found) == len(pairs) else None


def parse_bytes(text: str) -> bytes | None:
    """The 16 bytes of a UUID string, or None when Go's ``uuid.Parse`` rejects it."""
    data = text.encode("utf-8")
    n = len(data)
    if n == 32:
        return _all_bytes([_hex_pair(data, 2 * i) for i in range(16)])
    if n == 45:
        if data[:9].lower() != b"urn:uuid:":
            return None
        data = data[9:]
    elif n == 38:
        data = data[1:]
    elif n != 36:
        return None
    if any(data[i] != ord("-") for i in (8, 13, 18, 23)):
        return None
    return _all_bytes([_hex_pair(data, i) for i in _BYTE_OFFSETS])


def _int64(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _variant(b: int) -> str:
    if b & 0xC0 == 0x80:
        return _VARIANTS[1]
    if b & 0xE0 == 0xC0:
        return _VARIANTS[3]
    if b & 0xE0 == 0xE0:
        return _VARIANTS[4]
    return _VARIANTS[2]


def _mac_variables(b: int) -> str:
    if b & 0b11 == 0b11:
        return "local:multicast"
    if b & 0b01:
        return "global:multicast"
    if b & 0b10:
        return "local:unicast"
    return "global:unicast"


@register("uuid.parse")
def parse(uuid: Any) -> dict[str, Any]:
    """The fields of a UUID: version and variant, plus time fields for versions 1 and 2."""
    if not isinstance(uuid, str):
        raise BuiltinError("uuid.parse: operand 1 must be string")
    raw = parse_bytes(uuid)
    if raw is None:
        raise BuiltinError("uuid.parse: invalid UUID")  # OPA: undefined
    version = raw[6] >> 4
    out: dict[str, Any] = {"version": version, "variant": _variant(raw[8])}
    if version in (1, 2):
        ticks = (
            int.from_bytes(raw[0:4], "big")
            | int.from_bytes(raw[4:6], "big") << 32
            | (int.from_bytes(raw[6:8], "big") & 0xFFF) << 48
        )
        out["time"] = _int64((ticks - _GREGORIAN_OFFSET) * 100)
        out["nodeid"] = "-".join(f"{b:02x}" for b in raw[10:16])
        out["macvariables"] = _mac_variables(raw[10])
        out["clocksequence"] = int.from_bytes(raw[8:10], "big") & 0x3FFF
        if version == 2:
            out["id"] = int.from_bytes(raw[0:4], "big")
            out["domain"] = _DOMAINS.get(raw[9], f"Domain{raw[9]}")
    return out
