"""URL builtins: ``urlquery.*`` and ``uri.*`` with Go ``net/url`` semantics.

Go works on bytes: percent-escapes are applied to the UTF-8 encoding, and a
decoded byte sequence that is not valid UTF-8 reaches Rego with each invalid
byte shown as U+FFFD (as OPA's JSON output shows it).
"""

from __future__ import annotations

import ipaddress

from engine.core.go_text import go_string
from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.values import Set, Value, type_name

# Encoding modes of Go's net/url.
_PATH = "path"
_PATH_SEGMENT = "path_segment"
_HOST = "host"
_ZONE = "zone"
_USER_PASSWORD = "user_password"
_QUERY_COMPONENT = "query_component"
_FRAGMENT = "fragment"

_HEX = frozenset(b"0123456789abcdefABCDEF")
_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def _should_escape(c: int, mode: str) -> bool:
    """Whether byte ``c`` is percent-escaped in ``mode`` (Go's ``shouldEscape``)."""
    if c in _ALNUM:
        return False
    if mode in (_HOST, _ZONE) and chr(c) in "!$&'()*+,;=:[]<>\"":
        return False
    ch = chr(c)
    if ch in "-_.~":
        return False
    if ch in "$&+,/:;=?@":
        if mode == _PATH:
            return ch == "?"
        if mode == _PATH_SEGMENT:
            return ch in "/;,?"
        if mode == _USER_PASSWORD:
            return ch in "@/?:"
        if mode == _QUERY_COMPONENT:
            return True
        if mode == _FRAGMENT:
            return False
    return not (mode == _FRAGMENT and ch in "!()*")


_ESCAPE_TABLES = {
    mode: tuple(_should_escape(c, mode) for c in range(256))
    for mode in (_PATH, _PATH_SEGMENT, _HOST, _ZONE, _USER_PASSWORD, _QUERY_COMPONENT, _FRAGMENT)
}


class _UrlError(Exception):
    pass


def _unhex(c: int) -> int:
    return int(chr(c), 16)


def _unescape(s: bytes, mode: str) -> bytes:
    """Go's ``unescape``: decode %XX (and + in query components)."""
    table = _ESCAPE_TABLES[_HOST]
    n = len(s)
    i = 0
    while i < n:
        c = s[i]
        if c == 0x25:  # %
            if i + 2 >= n or s[i + 1] not in _HEX or s[i + 2] not in _HEX:
                raise _UrlError("invalid URL escape")
            if mode == _HOST and _unhex(s[i + 1]) < 8 and s[i : i + 3] != b"%25":
                raise _UrlError("invalid URL escape")
            if mode == _ZONE:
                v = _unhex(s[i + 1]) << 4 | _unhex(s[i + 2])
                if s[i : i + 3] != b"%25" and v != 0x20 and table[v]:
                    raise _UrlError("invalid URL escape")
            i += 3
        else:
            if mode in (_HOST, _ZONE) and c < 0x80 and _ESCAPE_TABLES[mode][c]:
                raise _UrlError("invalid character in host name")
            i += 1
    out = bytearray()
    i = 0
    while i < n:
        c = s[i]
        if c == 0x25:
            out.append(_unhex(s[i + 1]) << 4 | _unhex(s[i + 2]))
            i += 3
            continue
        if c == 0x2B and mode == _QUERY_COMPONENT:
            out.append(0x20)
        else:
            out.append(c)
        i += 1
    return bytes(out)


def _escape(s: bytes, mode: str) -> bytes:
    """Go's ``escape``: percent-encode (upper-case hex), space as + in queries."""
    table = _ESCAPE_TABLES[mode]
    out = bytearray()
    for c in s:
        if c == 0x20 and mode == _QUERY_COMPONENT:
            out.append(0x2B)
        elif table[c]:
            out += b"%%%02X" % c
        else:
            out.append(c)
    return bytes(out)


def query_escape(s: str) -> str:
    """Go's ``url.QueryEscape``."""
    return _escape(s.encode("utf-8"), _QUERY_COMPONENT).decode("ascii")


def _string_arg(name: str, pos: int, value: Value) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string but got {type_name(value)}")
    return value


@register("urlquery.encode")
def urlquery_encode(s: Value) -> str:
    """Escape a string for use in a URL query (space becomes ``+``)."""
    return query_escape(_string_arg("urlquery.encode", 1, s))


@register("urlquery.decode")
def urlquery_decode(s: Value) -> str:
    """Decode a URL query component; undefined for a malformed %-escape."""
    text = _string_arg("urlquery.decode", 1, s)
    try:
        return go_string(_unescape(text.encode("utf-8"), _QUERY_COMPONENT))
    except _UrlError as err:
        raise BuiltinError(f"urlquery.decode: {err}") from None


@register("urlquery.encode_object")
def urlquery_encode_object(obj: Value) -> str:
    """Encode an object of string / array / set values as a query, sorted by key."""
    name = "urlquery.encode_object"
    if not isinstance(obj, dict):
        raise BuiltinError(f"{name}: operand 1 must be object but got {type_name(obj)}")
    values: dict[str, list[str]] = {}
    for key, val in obj.items():
        if not isinstance(key, str):
            raise BuiltinError(f"{name}: operand 1 must have string keys")
        if isinstance(val, str):
            values[key] = [val]
        elif isinstance(val, (list, Set)):
            items = list(val)
            if not all(isinstance(v, str) for v in items):
                raise BuiltinError(
                    f"{name}: operand 1 values must be string, array[string], or set[string]"
                )
            if items:
                values[key] = items
            else:
                values.setdefault(key, [])
        else:
            raise BuiltinError(
                f"{name}: operand 1 values must be string, array[string], or set[string]"
            )
    parts: list[str] = []
    for key in sorted(values, key=lambda k: k.encode("utf-8")):
        escaped = query_escape(key)
        parts.extend(f"{escaped}={query_escape(v)}" for v in values[key])
    return "&".join(parts)


@register("urlquery.decode_object")
def urlquery_decode_object(s: Value) -> dict[str, list[str]]:
    """Parse a query string into an object of arrays (Go's ``url.ParseQuery``)."""
    name = "urlquery.decode_object"
    query = _string_arg(name, 1, s).encode("utf-8")
    if query.count(b"&") + 1 > 10000:
        raise BuiltinError(f"{name}: number of URL query parameters exceeded limit")
    out: dict[str, list[str]] = {}
    failed = False
    for part in query.split(b"&") if query else []:
        if b";" in part:
            failed = True
            continue
        if not part:
            continue
        key, _, val = part.partition(b"=")
        try:
            k = go_string(_unescape(key, _QUERY_COMPONENT))
            v = go_string(_unescape(val, _QUERY_COMPONENT))
        except _UrlError:
            failed = True
            continue
        out.setdefault(k, []).append(v)
    if failed:
        raise BuiltinError(f"{name}: invalid query")
    return out


# ---------------------------------------------------------------- url.Parse


def _get_scheme(raw: bytes) -> tuple[bytes, bytes]:
    for i, c in enumerate(raw):
        if 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A:
            continue
        if 0x30 <= c <= 0x39 or c in b"+-.":
            if i == 0:
                return b"", raw
            continue
        if c == 0x3A:
            if i == 0:
                raise _UrlError("missing protocol scheme")
            return raw[:i], raw[i + 1 :]
        return b"", raw
    return b"", raw


def _valid_optional_port(port: bytes) -> bool:
    if not port:
        return True
    if port[:1] != b":":
        return False
    return all(0x30 <= b <= 0x39 for b in port[1:])


_USERINFO_OK = frozenset(b"-._:~!$&'()*+,;=%@") | _ALNUM


def _parse_host(scheme: bytes, host: bytes) -> bytes:
    open_idx = host.rfind(b"[")
    if open_idx > 0:
        raise _UrlError("invalid IP-literal")
    if open_idx == 0:
        close_idx = host.rfind(b"]")
        if close_idx < 0:
            raise _UrlError("missing ']' in host")
        colon_port = host[close_idx + 1 :]
        if not _valid_optional_port(colon_port):
            raise _UrlError("invalid port after host")
        colon_port = _unescape(colon_port, _HOST)
        hostname = host[1:close_idx]
        zone_idx = hostname.find(b"%25")
        if zone_idx >= 0:
            unescaped = _unescape(hostname[:zone_idx], _HOST) + _unescape(
                hostname[zone_idx:], _ZONE
            )
        else:
            unescaped = _unescape(hostname, _HOST)
        _check_ip_literal(unescaped)
        return b"[" + unescaped + b"]" + colon_port
    i = host.find(b":")
    if i != -1:
        last = host.rfind(b":")
        if last != i and scheme not in (b"http", b"https"):
            i = last
        if not _valid_optional_port(host[i:]):
            raise _UrlError("invalid port after host")
    return _unescape(host, _HOST)


def _check_ip_literal(addr: bytes) -> None:
    """Go's ``netip.ParseAddr`` accepting IPv6 (with zone) but not IPv4."""
    text = go_string(addr)
    if ":" not in text.partition("%")[0]:
        raise _UrlError("invalid IP-literal")
    if text.endswith("%"):
        raise _UrlError("invalid host")
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        raise _UrlError("invalid host") from None


def _parse_authority(scheme: bytes, authority: bytes) -> bytes:
    i = authority.rfind(b"@")
    host = _parse_host(scheme, authority if i < 0 else authority[i + 1 :])
    if i < 0:
        return host
    userinfo = authority[:i]
    if not all(c in _USERINFO_OK or c >= 0x80 for c in userinfo):
        raise _UrlError("net/url: invalid userinfo")
    if any(c >= 0x80 for c in userinfo):
        # validUserinfo walks runes: any non-ASCII rune is rejected.
        raise _UrlError("net/url: invalid userinfo")
    user, _, password = userinfo.partition(b":")
    _unescape(user, _USER_PASSWORD)
    _unescape(password, _USER_PASSWORD)
    return host


def _split_host_port(host_port: bytes) -> tuple[bytes, bytes]:
    host, port = host_port, b""
    colon = host.rfind(b":")
    if colon != -1 and _valid_optional_port(host[colon:]):
        host, port = host[:colon], host[colon + 1 :]
    if host.startswith(b"[") and host.endswith(b"]"):
        host = host[1:-1]
    return host, port


def parse_url(raw_text: str) -> dict[str, str]:
    """The fields ``uri.parse`` reports for Go's ``url.Parse(raw_text)``."""
    raw = raw_text.encode("utf-8")
    rest_all, sep, frag = raw.partition(b"#")
    fields: dict[str, bytes] = {}
    if any(b < 0x20 or b == 0x7F for b in rest_all):
        raise _UrlError("net/url: invalid control character in URL")
    path = b""
    raw_path = b""
    if rest_all == b"*":
        path = b"*"
    else:
        scheme, rest = _get_scheme(rest_all)
        scheme = scheme.lower()
        if scheme:
            fields["scheme"] = scheme
        if rest.endswith(b"?") and rest.count(b"?") == 1:
            rest = rest[:-1]
        else:
            rest, _, query = rest.partition(b"?")
            if query:
                fields["raw_query"] = query
        opaque = False
        if not rest.startswith(b"/"):
            if scheme:
                opaque = True
            elif b":" in rest.partition(b"/")[0]:
                raise _UrlError("first path segment in URL cannot contain colon")
        if not opaque:
            if (scheme or not rest.startswith(b"///")) and rest.startswith(b"//"):
                authority, slash, tail = rest[2:].partition(b"/")
                rest = slash + tail
                host = _parse_authority(scheme, authority)
                hostname, port = _split_host_port(host)
                if hostname:
                    fields["hostname"] = hostname
                if port:
                    fields["port"] = port
            path = _unescape(rest, _PATH)
            raw_path = b"" if _escape(path, _PATH) == rest else rest
    if path:
        fields["path"] = path
        fields["raw_path"] = raw_path or path
    if sep and frag:
        # setFragment only validates; the fragment is reported decoded.
        fields["fragment"] = _unescape(frag, _FRAGMENT)
    return {k: go_string(v) for k, v in fields.items()}


@register("uri.parse")
def uri_parse(s: Value) -> dict[str, str]:
    """Parse a URI (Go ``url.Parse``) into its non-empty components."""
    text = _string_arg("uri.parse", 1, s)
    try:
        return parse_url(text)
    except _UrlError as err:
        raise BuiltinError(f"uri.parse: {err}") from None


@register("uri.is_valid")
def uri_is_valid(s: Value) -> bool:
    """Whether Go's ``url.Parse`` accepts a non-empty string."""
    if not isinstance(s, str) or not s:
        return False
    try:
        parse_url(s)
    except _UrlError:
        return False
    return True
