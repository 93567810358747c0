"""CIDR builtins with Go ``net`` semantics.

Addresses are modelled as Go models them: ``bytes`` of length 4 or 16, where
an IPv4 address parsed from text is the 16-byte IPv4-mapped form and a network
is an (address, mask) pair whose lengths may differ. Parsing follows Go's
``netip.ParseAddr`` (no leading zeros in IPv4 fields, no zones), and the
merge algorithm follows OPA's port of netaddr's ``cidr_merge`` step by step,
because its results on mixed IPv4/IPv6 input depend on those byte layouts.
"""

from __future__ import annotations

from typing import Any

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register
from engine.wasm.values import Set

_V4_PREFIX = bytes(10) + b"\xff\xff"
_ZERO_V4 = _V4_PREFIX + bytes(4)
_ZERO_V6 = bytes(16)
_MAX_V4 = _V4_PREFIX + b"\xff" * 4
_MAX_V6 = b"\xff" * 16

Net = tuple[bytes, bytes]  # (IP, mask), as Go's net.IPNet


class _ParseError(Exception):
    pass


class _GoPanic(Exception):
    """A situation where OPA's Go code would panic (index out of range)."""


# ---------------------------------------------------------------- parsing


def _parse_v4_fields(s: str) -> bytes:
    fields: list[int] = []
    val = digits = 0
    for i, ch in enumerate(s):
        if "0" <= ch <= "9":
            if digits == 1 and val == 0:
                raise _ParseError("IPv4 field has octet with leading zero")
            val = val * 10 + ord(ch) - 48
            digits += 1
            if val > 255:
                raise _ParseError("IPv4 field has value >255")
        elif ch == ".":
            if i == 0 or i == len(s) - 1 or s[i - 1] == ".":
                raise _ParseError("IPv4 field must have at least one digit")
            if len(fields) == 3:
                raise _ParseError("IPv4 address too long")
            fields.append(val)
            val = digits = 0
        else:
            raise _ParseError("unexpected character")
    if len(fields) < 3:
        raise _ParseError("IPv4 address too short")
    fields.append(val)
    return bytes(fields)


def _parse_v6(s: str) -> tuple[bytes, str]:
    zone = ""
    pct = s.find("%")
    if pct >= 0:
        s, zone = s[:pct], s[pct + 1 :]
        if not zone:
            raise _ParseError("zone must be a non-empty string")
    ip = bytearray(16)
    ellipsis = -1
    if len(s) >= 2 and s[0] == ":" and s[1] == ":":
        ellipsis = 0
        s = s[2:]
        if not s:
            return bytes(ip), zone
    i = 0
    while i < 16:
        off = acc = 0
        while off < len(s):
            c = s[off]
            if "0" <= c <= "9":
                acc = acc * 16 + ord(c) - 48
            elif "a" <= c <= "f":
                acc = acc * 16 + ord(c) - 87
            elif "A" <= c <= "F":
                acc = acc * 16 + ord(c) - 55
            else:
                break
            if off > 3:
                raise _ParseError("each colon-separated field must have at most 4 hex digits")
            off += 1
        if off == 0:
            raise _ParseError("each colon-separated field must have at least one digit")
        if off < len(s) and s[off] == ".":
            if ellipsis < 0 and i != 12:
                raise _ParseError("embedded IPv4 address must replace the final 2 fields")
            if i + 4 > 16:
                raise _ParseError("too many hex fields to fit an embedded IPv4")
            ip[i : i + 4] = _parse_v4_fields(s)
            s = ""
            i += 4
            break
        ip[i] = acc >> 8
        ip[i + 1] = acc & 0xFF
        i += 2
        s = s[off:]
        if not s:
            break
        if s[0] != ":":
            raise _ParseError("unexpected character, want colon")
        if len(s) == 1:
            raise _ParseError("colon must be followed by more characters")
        s = s[1:]
        if s[0] == ":":
            if ellipsis >= 0:
                raise _ParseError("multiple :: in address")
            ellipsis = i
            s = s[1:]
            if not s:
                break
    if s:
        raise _ParseError("trailing garbage after address")
    if i < 16:
        if ellipsis < 0:
            raise _ParseError("address string too short")
        n = 16 - i
        ip[ellipsis + n : 16] = ip[ellipsis:i]
        ip[ellipsis : ellipsis + n] = bytes(n)
    elif ellipsis >= 0:
        raise _ParseError("the :: must expand to at least one field of zeros")
    return bytes(ip), zone


def _parse_addr(s: str) -> tuple[bytes, bool]:
    """Go's ``netip.ParseAddr`` without zones: (4 or 16 address bytes, is IPv4)."""
    for ch in s:
        if ch == ".":
            return _parse_v4_fields(s), True
        if ch == ":":
            ip, zone = _parse_v6(s)
            if zone:
                raise _ParseError("zone not allowed")
            return ip, False
        if ch == "%":
            raise _ParseError("missing IPv6 address")
    raise _ParseError("unable to parse IP")


def parse_ip(s: str) -> bytes | None:
    """Go's ``net.ParseIP``: the 16-byte form, or None."""
    try:
        ip, is4 = _parse_addr(s)
    except _ParseError:
        return None
    return _V4_PREFIX + ip if is4 else ip


def cidr_mask(ones: int, bits: int) -> bytes:
    """Go's ``net.CIDRMask``."""
    value = ((1 << bits) - 1) ^ ((1 << (bits - ones)) - 1)
    return value.to_bytes(bits // 8, "big")


def parse_cidr(s: str) -> tuple[bytes, Net]:
    """Go's ``net.ParseCIDR``: (the 16-byte address, the network)."""
    addr, sep, mask = s.partition("/")
    if not sep:
        raise _ParseError(f"invalid CIDR address: {s}")
    ip, is4 = _parse_addr(addr)
    digits = 0
    while digits < len(mask) and "0" <= mask[digits] <= "9":
        digits += 1
    bits = 32 if is4 else 128
    if digits == 0 or digits != len(mask) or int(mask) > bits:
        raise _ParseError(f"invalid CIDR address: {s}")
    m = cidr_mask(int(mask), bits)
    ip16 = _V4_PREFIX + ip if is4 else ip
    network = mask_ip(ip16, m)
    assert network is not None  # the mask is as long as the address (or its IPv4 part)
    return ip16, (network, m)


# ---------------------------------------------------------------- Go net.IP helpers


def to4(ip: bytes | None) -> bytes | None:
    """Go's ``IP.To4``."""
    if ip is None:
        return None
    if len(ip) == 4:
        return ip
    if len(ip) == 16 and ip[:12] == _V4_PREFIX:
        return ip[12:]
    return None


def mask_ip(ip: bytes, mask: bytes) -> bytes | None:
    """Go's ``IP.Mask`` (None where Go returns nil)."""
    if len(mask) == 16 and len(ip) == 4 and mask[:12] == b"\xff" * 12:
        mask = mask[12:]
    if len(mask) == 4 and len(ip) == 16 and ip[:12] == _V4_PREFIX:
        ip = ip[12:]
    if len(ip) != len(mask):
        return None
    return bytes(a & b for a, b in zip(ip, mask, strict=True))


def _equal(a: bytes, b: bytes) -> bool:
    if len(a) == len(b):
        return a == b
    if len(a) == 4 and len(b) == 16:
        return b[:12] == _V4_PREFIX and a == b[12:]
    if len(a) == 16 and len(b) == 4:
        return a[:12] == _V4_PREFIX and a[12:] == b
    return False


def _network_and_mask(net: Net) -> tuple[bytes, bytes] | None:
    ip = to4(net[0])
    if ip is None:
        ip = net[0]
        if len(ip) != 16:
            return None
    m = net[1]
    if len(m) == 4:
        if len(ip) != 4:
            return None
    elif len(m) == 16:
        if len(ip) == 4:
            m = m[12:]
    else:
        return None
    return ip, m


def contains(net: Net, ip: bytes) -> bool:
    """Go's ``IPNet.Contains``."""
    nm = _network_and_mask(net)
    if nm is None:
        return False
    nn, m = nm
    ip = to4(ip) or ip
    if len(ip) != len(nn):
        return False
    return all(a & k == b & k for a, b, k in zip(nn, ip, m, strict=True))


def _mask_length(m: bytes) -> int:
    """Leading ones of a canonical mask, -1 otherwise."""
    value = int.from_bytes(m, "big")
    bits = len(m) * 8
    ones = bits - (((1 << bits) - 1) ^ value).bit_length()
    return ones if bits and m == cidr_mask(ones, bits) else -1


def mask_size(m: bytes) -> tuple[int, int]:
    """Go's ``IPMask.Size``."""
    ones = _mask_length(m)
    return (0, 0) if ones == -1 else (ones, len(m) * 8)


def ip_string(ip: bytes | None) -> str:
    """Go's ``IP.String``."""
    if not ip:
        return "<nil>"
    if len(ip) not in (4, 16):
        return "?" + ip.hex()
    v4 = to4(ip)
    if v4 is not None:
        return ".".join(str(b) for b in v4)
    groups = [ip[i] << 8 | ip[i + 1] for i in range(0, 16, 2)]
    best_start, best_len = -1, 0
    i = 0
    while i < 8:
        j = i
        while j < 8 and groups[j] == 0:
            j += 1
        if j - i >= 2 and j - i > best_len:
            best_start, best_len = i, j - i
        i = j + 1 if j == i else j
    if best_start < 0:
        return ":".join(f"{g:x}" for g in groups)
    head = ":".join(f"{g:x}" for g in groups[:best_start])
    tail = ":".join(f"{g:x}" for g in groups[best_start + best_len :])
    return f"{head}::{tail}"


def net_string(net: Net) -> str:
    """Go's ``IPNet.String``."""
    nm = _network_and_mask(net)
    if nm is None:
        return "<nil>"
    nn, m = nm
    ones = _mask_length(m)
    if ones == -1:
        return f"{ip_string(nn)}/{m.hex()}"
    return f"{ip_string(nn)}/{ones}"


# ---------------------------------------------------------------- builtins


def _string(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand 1 must be string")
    return value


def _cidr(name: str, value: Any) -> Net:
    try:
        return parse_cidr(_string(name, value))[1]
    except _ParseError as exc:
        raise BuiltinError(f"{name}: {exc}") from None


def _last_ip(net: Net) -> bytes:
    ones, bits = mask_size(net[1])
    if ones == 0 and bits == 0:
        raise BuiltinError("CIDR mask is in non-standard format")
    if ones == bits:
        return net[0]
    value = int.from_bytes(net[0], "big") | ((1 << (bits - ones)) - 1)
    return value.to_bytes(bits // 8, "big")


def _plain_v6(net: Net) -> bool:
    return len(net[0]) == 16 and len(net[1]) == 16 and to4(net[0]) is None


def cidr_contains(name: str, cidr: Any, other: Any) -> bool:
    """OPA's ``net.cidr_contains``: ``other`` is an address or a network."""
    outer = _cidr(name, cidr)
    text = _string(name, other)
    ip = parse_ip(text)
    if ip is not None:
        return contains(outer, ip)
    try:
        inner = parse_cidr(text)[1]
    except _ParseError:
        raise BuiltinError(f"{name}: not a valid textual representation: {text}") from None
    if _plain_v6(outer) and _plain_v6(inner):
        a_ones, b_ones = mask_size(outer[1])[0], mask_size(inner[1])[0]
        masked = mask_ip(inner[0], outer[1])
        return a_ones <= b_ones and masked is not None and _equal(outer[0], masked)
    if not contains(outer, inner[0]):
        return False
    return contains(outer, _last_ip(inner))


def _match_operand(name: str, pos: int, value: Any) -> list[tuple[Any, Any]]:
    """(CIDR term, index) pairs of a cidr_contains_matches operand."""

    def cidr_of(elem: Any) -> Any:
        if isinstance(elem, str):
            return elem
        if isinstance(elem, list) and elem:
            return elem[0]
        raise BuiltinError(f"{name}: operand {pos}: element must be string or non-empty array")

    if isinstance(value, str):
        return [(value, value)]
    if isinstance(value, list):
        return [(cidr_of(e), i) for i, e in enumerate(value)]
    if isinstance(value, Set):
        return [(cidr_of(e), e) for e in value]
    if isinstance(value, dict):
        return [(cidr_of(v), k) for k, v in value.items()]
    return []


@register("net.cidr_contains_matches")
def cidr_contains_matches(cidrs: Any, cidrs_or_ips: Any) -> Set:
    """Pairs of indices [i, j] where network i contains network or address j."""
    name = "net.cidr_contains_matches"
    out = []
    outer = _match_operand(name, 1, cidrs)
    inner = _match_operand(name, 2, cidrs_or_ips)
    context = current_context()
    for c1, i1 in outer:
        context.check_time()  # every pair is tried: quadratic in the operands
        for c2, i2 in inner:
            if cidr_contains(name, c1, c2):
                out.append([list(i1) if isinstance(i1, tuple) else i1, i2])
        context.check_result_size(len(out))
    return Set(out)


@register("net.cidr_expand")
def cidr_expand(cidr: Any) -> Set:
    """Every address of a network, as strings."""
    name = "net.cidr_expand"
    try:
        ip, net = parse_cidr(_string(name, cidr))
    except _ParseError as exc:
        raise BuiltinError(f"{name}: {exc}") from None
    cur = mask_ip(ip, net[1])
    assert cur is not None
    width = len(cur)
    host_bits = 8 * width - sum(bin(b).count("1") for b in net[1])
    current_context().check_result_size(1 << host_bits)
    value = int.from_bytes(cur, "big")
    out: list[str] = []
    context = current_context()
    while contains(net, cur):
        if len(out) % 4096 == 0:
            context.check_time()
        out.append(ip_string(cur))
        value = (value + 1) % (1 << (8 * width))
        cur = value.to_bytes(width, "big")
    return Set(out)


@register("net.cidr_is_valid")
def cidr_is_valid(cidr: Any) -> bool:
    """Whether ``cidr`` is a valid IPv4 or IPv6 CIDR."""
    if not isinstance(cidr, str):
        return False
    try:
        parse_cidr(cidr)
    except _ParseError:
        return False
    return True


# ---------------------------------------------------------------- cidr_merge


def _address_range(net: Net) -> tuple[bytes, bytes]:
    first = mask_ip(net[0], net[1])
    if first is None:
        raise _GoPanic("nil IP")
    last = bytearray(first)
    if to4(first) is not None:
        first = _V4_PREFIX + first
        last = bytearray(_V4_PREFIX) + last
    mask = net[1]
    for i in range(len(mask)):
        if 16 - i - 1 >= len(last):
            raise _GoPanic("index out of range")
        last[16 - i - 1] |= ~mask[len(mask) - i - 1] & 0xFF
    return first, bytes(last)


def _previous_ip(ip: bytes) -> bytes:
    if _equal(ip, _ZERO_V4) or _equal(ip, _ZERO_V6):
        return ip
    prev = bytearray(ip)
    lower = 12 if to4(ip) is not None else 0
    overflow = False
    for i in range(len(ip) - 1, lower - 1, -1):
        if overflow or i == len(ip) - 1:
            prev[i] = (prev[i] - 1) & 0xFF
        overflow = ip[i] == 0 and prev[i] == 255
    return bytes(prev)


def _next_ip(ip: bytes) -> bytes:
    if _equal(ip, _MAX_V4) or _equal(ip, _MAX_V6):
        return ip
    if len(ip) == 4:
        return ((int.from_bytes(ip, "big") + 1) % (1 << 32)).to_bytes(4, "big")
    if len(ip) == 16:
        low = (int.from_bytes(ip[8:], "big") + 1) % (1 << 64)
        high = int.from_bytes(ip[:8], "big")
        if low == 0:
            high = (high + 1) % (1 << 64)
        return high.to_bytes(8, "big") + low.to_bytes(8, "big")
    return ip


def _min_bytes(value: int) -> bytes:
    """Go's ``big.Int.Bytes`` of a non-negative value (empty for zero)."""
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


def _spanning_cidr(first: bytes, last: bytes) -> Net:
    is4 = to4(first) is not None
    bits, width = (32, 4) if is4 else (128, 16)
    size = bits
    low = int.from_bytes(first, "big")
    high = int.from_bytes(last, "big")
    while size > 0 and low < high:
        size -= 1
        high &= -(1 << (bits - size))
    ip = bytes(10) + _min_bytes(high) if is4 else _min_bytes(high)
    if not ip:
        ip = bytes(width)
    return ip, cidr_mask(size, bits)


def _pad16(value: int) -> bytes:
    raw = _min_bytes(value)
    if len(raw) > 16:
        raise _GoPanic("negative length")
    return bytes(16 - len(raw)) + raw


def _partition(target: Net, exclude: Net) -> tuple[list[Net], list[Net]]:
    target_is4 = to4(target[0]) is not None
    t_first, t_last = _address_range(target)
    e_first, e_last = _address_range(exclude)
    t_size = mask_size(target[1])[0]
    e_size = mask_size(exclude[1])[0]
    if e_last < t_first:
        return [], [target]
    if t_last < e_first:
        return [target], []
    if t_size >= e_size:
        return [], []
    left: list[Net] = []
    right: list[Net] = []
    new_len = t_size + 1
    lower = int.from_bytes(t_first, "big")
    bits = 32 if target_is4 else 128
    t16 = t_first if len(t_first) in (4, 16) else b""
    if len(t16) == 4:
        t16 = _V4_PREFIX + t16
    upper = int.from_bytes(t16, "big") + (1 << (bits - new_len))
    matched = 0
    while e_size >= new_len:
        if target_is4:
            upper_b = bytes(10) + _min_bytes(upper)
            lower_b = bytes(10) + _min_bytes(lower)
        else:
            upper_b = _pad16(upper)
            lower_b = _pad16(lower)
        if e_first >= upper_b:
            left.append((lower_b, cidr_mask(new_len, bits)))
            matched = upper
        else:
            right.append((upper_b, cidr_mask(new_len, bits)))
            matched = lower
        new_len += 1
        if new_len > bits:
            break
        lower = matched
        upper = matched + (1 << (bits - new_len))
    return left, right


def _range_to_cidrs(first: bytes, last: bytes) -> list[Net]:
    spanning = _spanning_cidr(first, last)
    s_first, s_last = _address_range(spanning)
    out: list[Net] = []
    if s_first < first:
        prev = _previous_ip(first)
        bits = 32 if to4(prev) is not None else 128
        _, right = _partition(spanning, (prev, cidr_mask(bits, bits)))
        if not right:
            raise _GoPanic("index out of range")
        spanning = right[0]
        out.extend(right[1:])
    if s_last > last:
        nxt = _next_ip(last)
        bits = 32 if to4(nxt) is not None else 128
        left, _ = _partition(spanning, (nxt, cidr_mask(bits, bits)))
        out.extend(left)
    else:
        out.append(spanning)
    return out


def _merge(networks: list[Net]) -> list[Net]:
    # Each range: [first, last, original network or None once merged].
    ranges: list[tuple[bytes, bytes, Net | None]] = []
    for net in networks:
        first, last = _address_range(net)
        ranges.append((first, last, net))
    ranges.sort(key=lambda r: (r[1], r[0]))
    i = len(ranges) - 1
    while i > 0:
        prev = _previous_ip(ranges[i][0])
        if prev <= ranges[i - 1][1]:
            first = ranges[i - 1][0] if ranges[i - 1][0] < ranges[i][0] else ranges[i][0]
            ranges[i - 1] = (first, ranges[i][1], None)
            del ranges[i]
        i -= 1
    out: list[Net] = []
    for first, last, whole in ranges:
        if whole is not None:
            out.append(whole)
        else:
            out.extend(_range_to_cidrs(first, last))
    return out


def _default_mask(ip: bytes) -> bytes:
    v4 = to4(ip)
    assert v4 is not None
    if v4[0] < 0x80:
        return cidr_mask(8, 32)
    if v4[0] < 0xC0:
        return cidr_mask(16, 32)
    return cidr_mask(24, 32)


def _merge_element(name: str, value: Any) -> Net:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: element must be string")
    ip = parse_ip(value)
    if ip is None:
        try:
            return parse_cidr(value)[1]
        except _ParseError as exc:
            raise BuiltinError(f"{name}: {exc}") from None
    if to4(ip) is not None:
        return ip, _default_mask(ip)
    raise BuiltinError(f"{name}: IPv6 invalid: needs prefix length")


@register("net.cidr_merge")
def cidr_merge(addrs: Any) -> Set:
    """The smallest set of CIDRs covering the given networks and IPv4 addresses."""
    name = "net.cidr_merge"
    if not isinstance(addrs, (list, Set)):
        raise BuiltinError(f"{name}: operand must be an array")
    networks = [_merge_element(name, v) for v in addrs]
    if not networks:
        return Set()
    try:
        merged = _merge(networks)
    except _GoPanic as exc:
        raise BuiltinError(f"{name}: {exc}") from None
    return Set(net_string(n) for n in merged)
