"""YAML documents as OPA reads them: go-yaml v3 (OPA's ``internal/yaml``).

OPA's loader (``-d`` data files, ``eval -i`` inputs) and its ``yaml.unmarshal``
convert YAML the same way: the YAML 1.2 core schema resolves plain scalars
(``yes``/``on`` stay strings, ``017`` and ``0o17`` are 15, ``1_000`` is 1000),
timestamps stay strings, duplicate keys collapse to the last one, only the
first document of a stream is used (the rest must still parse), and the result
goes through Go's JSON encoding (``.inf``/``.nan`` cannot).

Parsing uses libyaml (PyYAML's C parser, from which go-yaml's parser was
ported) for the syntax; scalar resolution and merge keys follow go-yaml v3.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
from decimal import Decimal
from typing import Any

import yaml

from engine.core.document_error import DocumentError
from engine.core.go_text import go_string
from engine.core.yaml_limits import (
    allowed_alias_ratio,
    check_yaml_node,
    check_yaml_stream,
    has_anchor,
)

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_UINT64_MAX = 2**64 - 1

# ---------------------------------------------------------------- go-yaml v3 resolve


class YamlError(Exception):
    """YAML that OPA refuses to convert."""


NULL, BOOL, STR, INT, FLOAT, TIMESTAMP, MERGE, BINARY = (
    "!!null",
    "!!bool",
    "!!str",
    "!!int",
    "!!float",
    "!!timestamp",
    "!!merge",
    "!!binary",
)

_RESOLVE_MAP: dict[str, tuple[str, Any]] = {}
for _tag, _val, _words in (
    (BOOL, True, ("true", "True", "TRUE")),
    (BOOL, False, ("false", "False", "FALSE")),
    (NULL, None, ("", "~", "null", "Null", "NULL")),
    (FLOAT, math.nan, (".nan", ".NaN", ".NAN")),
    (FLOAT, math.inf, (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")),
    (FLOAT, -math.inf, ("-.inf", "-.Inf", "-.INF")),
    (MERGE, "<<", ("<<",)),
):
    for _word in _words:
        _RESOLVE_MAP[_word] = (_tag, _val)

_YAML_STYLE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_DOT_FLOAT = re.compile(r"\.[0-9]+([eE][-+]?[0-9]+)?")
_TIMESTAMP_FORMATS = (
    re.compile(
        r"(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?"
        r"(Z|[+-]\d{2}:\d{2})"
    ),
    re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?()"),
    re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})()()()()()"),
)
_DIGITS = {2: "01", 8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}


def _go_parse_int(s: str, base: int, *, unsigned: bool = False) -> int | None:
    """Go's ``strconv.ParseInt``/``ParseUint`` (base 0 reads 0x/0o/0b/0 prefixes)."""
    sign = 1
    if not unsigned and s[:1] in ("+", "-"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    if base == 0:
        low = s[:2].lower()
        if low in ("0x", "0o", "0b"):
            base = {"0x": 16, "0o": 8, "0b": 2}[low]
            s = s[2:]
        elif s.startswith("0") and len(s) > 1:
            base = 8
            s = s[1:]
        else:
            base = 10
    if not s or any(c not in _DIGITS[base] for c in s):
        return None
    n = sign * int(s, base)
    if unsigned:
        return n if n <= _UINT64_MAX else None
    return n if _INT64_MIN <= n <= _INT64_MAX else None


def _valid_date(m: re.Match[str]) -> bool:
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not 1 <= month <= 12:
        return False
    days = [31, 29 if (year % 4 == 0 and year % 100 != 0) or year % 400 == 0 else 28]
    days += [31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= day <= days[month - 1]:
        return False
    if m.group(4):
        if int(m.group(4)) > 23 or int(m.group(5)) > 59 or int(m.group(6)) > 59:
            return False
        zone = m.group(8)
        if zone and zone != "Z" and (int(zone[1:3]) > 23 or int(zone[4:6]) > 59):
            return False
    return True


def _is_timestamp(s: str) -> bool:
    """Whether go-yaml v3 reads a plain scalar as a !!timestamp."""
    if len(s) < 5 or not s[:4].isascii() or not s[:4].isdigit() or s[4] != "-":
        return False
    for fmt in _TIMESTAMP_FORMATS:
        m = fmt.fullmatch(s)
        if m and _valid_date(m):
            return True
    return False


def _timestamp_json(s: str) -> str:
    """An explicit !!timestamp as Go's encoding/json writes the ``time.Time``."""
    for fmt in _TIMESTAMP_FORMATS:
        m = fmt.fullmatch(s)
        if m and _valid_date(m):
            break
    else:
        raise YamlError(f"cannot decode !!str `{s}` as a !!timestamp")
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hour, minute, sec = (int(m.group(i) or 0) for i in (4, 5, 6))
    frac = (m.group(7) or "")[1:10].rstrip("0")
    zone = m.group(8) or "Z"
    if zone in ("+00:00", "-00:00"):
        zone = "Z"
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{sec:02d}"
    return text + (f".{frac}" if frac else "") + zone


def _go_parse_float(s: str) -> float | None:
    """A float from text already checked to be a decimal literal; None on overflow."""
    f = float(s)
    return None if math.isinf(f) else f


def resolve(tag: str, s: str) -> tuple[str, Any]:
    """go-yaml v3 ``resolve``: the tag and value of a scalar (tag "" = plain)."""
    if tag not in ("", STR, BOOL, INT, FLOAT, NULL, TIMESTAMP):
        return tag, s
    rtag, out = _resolve_untyped(tag, s)
    if tag in ("", rtag, STR, BINARY):
        return rtag, out
    if tag == FLOAT and rtag == INT:
        return FLOAT, float(out)
    raise YamlError(f"cannot decode {rtag} `{s}` as a {tag}")


def _resolve_untyped(tag: str, s: str) -> tuple[str, Any]:
    c = s[:1]
    if s == "":
        hint = "N"
    elif c in "+-":
        hint = "S"
    elif c.isascii() and c.isdigit():
        hint = "D"
    elif c in "yYnNtTfFoO~":
        hint = "M"
    elif c == ".":
        hint = "."
    else:
        return STR, s
    if tag in (STR, BINARY):
        return STR, s
    if s in _RESOLVE_MAP:
        return _RESOLVE_MAP[s]
    if hint == "." and _DOT_FLOAT.fullmatch(s):
        f = _go_parse_float(s)
        if f is not None:
            return FLOAT, f
    elif hint in ("D", "S"):
        if tag in ("", TIMESTAMP) and _is_timestamp(s):
            return TIMESTAMP, s
        plain = s.replace("_", "")
        n = _go_parse_int(plain, 0)
        if n is None and plain.isascii():
            n = _go_parse_int(plain, 0, unsigned=True)
        if n is not None:
            return INT, n
        if _YAML_STYLE_FLOAT.fullmatch(plain):
            f = _go_parse_float(plain)
            if f is not None:
                return FLOAT, f
        for prefix, base in (("0b", 2), ("-0b", 2), ("0o", 8), ("-0o", 8)):
            if plain.startswith(prefix):
                digits = plain[len(prefix) :]
                if prefix.startswith("-"):
                    digits = "-" + digits
                n = _go_parse_int(digits, base)
                if n is None and not prefix.startswith("-"):
                    n = _go_parse_int(digits, base, unsigned=True)
                if n is not None:
                    return INT, n
                break
    return STR, s


# ---------------------------------------------------------------- numbers as Go prints them


def _shortest_digits(f: float) -> tuple[str, int]:
    """Shortest round-trip digits of abs(f) and the decimal point position."""
    _, digits, exp = Decimal(repr(abs(f))).normalize().as_tuple()
    text = "".join(map(str, digits))
    assert isinstance(exp, int)
    return text, len(text) + exp


def _fmt_e(neg: bool, digits: str, dp: int) -> str:
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    exp = dp - 1
    return f"{'-' if neg else ''}{mant}e{'-' if exp < 0 else '+'}{abs(exp):02d}"


def _fmt_f(neg: bool, digits: str, dp: int) -> str:
    if dp <= 0:
        body = "0." + "0" * -dp + digits
    elif dp >= len(digits):
        body = digits + "0" * (dp - len(digits))
    else:
        body = digits[:dp] + "." + digits[dp:]
    return ("-" if neg else "") + body


def go_format_g(f: float) -> str:
    """Go's ``strconv.FormatFloat(f, 'g', -1, 64)``."""
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    neg = f < 0
    return _fmt_g(neg, digits, dp)


def _fmt_g(neg: bool, digits: str, dp: int) -> str:
    # Shortest %g: %e when the exponent is < -4 or >= 6.
    exp = dp - 1
    if exp < -4 or exp >= 6:
        return _fmt_e(neg, digits, dp)
    return _fmt_f(neg, digits, dp)


def float32_shortest(f: float) -> str:
    """Go's ``strconv.FormatFloat(f, 'g', -1, 32)``."""
    try:
        f32 = struct.unpack("f", struct.pack("f", f))[0]
    except OverflowError:
        f32 = math.copysign(math.inf, f)
    if math.isinf(f32):
        return "+Inf" if f32 > 0 else "-Inf"
    if math.isnan(f32):
        return "NaN"
    if f32 == 0:
        return "-0" if math.copysign(1, f32) < 0 else "0"
    for prec in range(1, 18):
        text = f"{f32:.{prec}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == f32:
            break
    mant, _, exp_text = text.partition("e")
    digits = mant.replace(".", "").lstrip("-").rstrip("0") or "0"
    dp = int(exp_text) + 1
    return _fmt_g(f32 < 0, digits, dp)


def go_json_float(f: float) -> str:
    """A float64 as Go's encoding/json writes it."""
    if math.isnan(f) or math.isinf(f):
        shown = "NaN" if math.isnan(f) else ("+Inf" if f > 0 else "-Inf")
        raise YamlError(f"json: unsupported value: {shown}")
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    neg = f < 0
    if 1e-6 <= abs(f) < 1e21:
        return _fmt_f(neg, digits, dp)
    text = _fmt_e(neg, digits, dp)
    mant, _, exp = text.partition("e")
    if exp.startswith("-0"):
        exp = "-" + exp[2:]
    return f"{mant}e{exp}"


# ---------------------------------------------------------------- YAML → value

_PLAIN_TAG = "?plain"
_LONG_PREFIX = "tag:yaml.org,2002:"


class _Resolver(yaml.resolver.BaseResolver):
    """Leaves plain scalars unresolved (go-yaml's rules are applied later)."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode:
            return _PLAIN_TAG if implicit[0] else _LONG_PREFIX + "str"
        if kind is yaml.SequenceNode:
            return _LONG_PREFIX + "seq"
        return _LONG_PREFIX + "map"


_ParserBase: Any = getattr(yaml, "CParser", None)


if _ParserBase is not None:
    # libyaml's CParser is looked up at run time (PyYAML may be built without
    # it), so its type is Any, which strict mode refuses as a base class.
    class _Loader(_ParserBase, _Resolver):  # type: ignore[misc]
        def __init__(self, stream: str | bytes) -> None:
            _ParserBase.__init__(self, stream)
            _Resolver.__init__(self)

else:  # pragma: no cover - PyYAML without libyaml

    class _Loader(  # type: ignore[no-redef]  # the pure-Python twin of the class above
        yaml.reader.Reader,
        yaml.scanner.Scanner,
        yaml.parser.Parser,
        yaml.composer.Composer,
        _Resolver,
    ):
        def __init__(self, stream: str | bytes) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            _Resolver.__init__(self)


def _short_tag(tag: str) -> str:
    if tag.startswith(_LONG_PREFIX):
        return "!!" + tag[len(_LONG_PREFIX) :]
    return tag


def first_document(text: str) -> yaml.Node | None:
    """The first document of a stream, after checking that the whole stream parses."""
    loader = _Loader(text)
    first: yaml.Node | None = None
    try:
        while loader.check_node():
            node = loader.get_node()
            if first is None:
                first = node
    except yaml.YAMLError as err:
        raise YamlError(str(err).replace("\n", " ")) from None
    finally:
        loader.dispose()
    return first


def _is_merge_key(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == _PLAIN_TAG and node.value == "<<"


def _key_string(value: Any) -> str | None:
    """OPA's ``keyString``: how a decoded YAML key becomes a JSON key."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = float32_shortest(value)
        return {"+Inf": ".inf", "-Inf": "-.inf", "NaN": ".nan"}.get(text, text)
    return None


class _Decoder:
    """go-yaml v3's decode into ``interface{}`` after OPA's node normalisation."""

    def __init__(self) -> None:
        self.decode_count = 0
        self.alias_count = 0
        self.seen: set[int] = set()
        self.active: set[int] = set()
        self.normalized: set[int] = set()

    def _count(self, node: yaml.Node) -> None:
        self.decode_count += 1
        if id(node) in self.seen:
            self.alias_count += 1
            if (
                self.alias_count > 100
                and self.decode_count > 1000
                and self.alias_count / self.decode_count > allowed_alias_ratio(self.decode_count)
            ):
                raise YamlError("document contains excessive aliasing")
        self.seen.add(id(node))

    def decode(self, node: yaml.Node) -> Any:
        if id(node) in self.active:
            raise YamlError("anchor value contains itself")
        self._count(node)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.decode(child) for child in node.value]
            out: dict[Any, Any] = {}
            self.mapping(node, out, None)
            return out
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == _PLAIN_TAG:
            rtag, value = resolve("", text)
            if rtag == TIMESTAMP:
                return text
            if rtag == MERGE:
                return text
            return value
        short = _short_tag(tag)
        if short == BINARY:
            try:
                data = text.replace("\n", "").replace("\r", "")
                return go_string(base64.b64decode(data, validate=True))
            except (binascii.Error, ValueError) as err:
                raise YamlError(f"!!binary value contains invalid base64 data: {err}") from None
        if short == TIMESTAMP:
            return _timestamp_json(text)
        if short == "!":
            return text
        rtag, value = resolve(short, text)
        if rtag == TIMESTAMP:
            return text
        return value

    def _normalize(self, node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
        pairs = list(node.value)
        if id(node) in self.normalized:
            return pairs
        self.normalized.add(id(node))
        # Repeated merge keys become one merge of a sequence, in order.
        first = -1
        merged: list[yaml.Node] = []
        for i, (key, value) in enumerate(pairs):
            if _is_merge_key(key):
                if first < 0:
                    first = i
                if isinstance(value, yaml.SequenceNode):
                    merged.extend(value.value)
                else:
                    merged.append(value)
        if first >= 0 and len(merged) >= 2:
            out: list[tuple[yaml.Node, yaml.Node]] = []
            for i, (key, value) in enumerate(pairs):
                if i == first:
                    out.append((key, yaml.SequenceNode(_LONG_PREFIX + "seq", merged)))
                elif not _is_merge_key(key):
                    out.append((key, value))
            pairs = out
        # Duplicate keys (by their JSON key text): the last value wins.
        seen: dict[str, int] = {}
        kept: list[tuple[yaml.Node, yaml.Node] | None] = list(pairs)
        for i, (key, value) in enumerate(pairs):
            if not isinstance(key, yaml.ScalarNode) or _is_merge_key(key):
                continue
            try:
                ident = _key_string(self.scalar(key))
            except YamlError:
                continue
            if ident is None:
                continue
            if ident in seen:
                prev = seen[ident]
                prev_pair = kept[prev]
                assert prev_pair is not None
                kept[prev] = (prev_pair[0], value)
                kept[i] = None
                continue
            seen[ident] = i
        pairs = [p for p in kept if p is not None]
        node.value = pairs
        return pairs

    def mapping(self, node: yaml.Node, out: dict[Any, Any], merged: set[Any] | None) -> None:
        if not isinstance(node, yaml.MappingNode):
            raise YamlError("map merge requires map or sequence of maps as the value")
        pairs = self._normalize(node)
        merge_node = None
        for key_node, value_node in pairs:
            if _is_merge_key(key_node):
                merge_node = value_node
                continue
            key = self.decode(key_node)
            if isinstance(key, (list, dict)):
                raise YamlError("invalid map key")
            hkey = (type(key).__name__, key)
            if merged is not None:
                if hkey in merged:
                    continue
                merged.add(hkey)
            out[hkey] = self.decode(value_node)
        if merge_node is not None:
            if merged is None:
                merged = set()
                for key_node, _ in pairs:
                    if not _is_merge_key(key_node):
                        key = self.decode(key_node)
                        merged.add((type(key).__name__, key))
            self.merge(merge_node, out, merged)

    def merge(self, node: yaml.Node, out: dict[Any, Any], merged: set[Any]) -> None:
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                self._count(child)
                self.mapping(child, out, merged)
        else:
            self._count(node)
            self.mapping(node, out, merged)


def _json_number(text: str) -> int | float:
    """A finite number as OPA reads Go's JSON text of it back."""
    return int(text) if "." not in text and "e" not in text else float(text)


def _jsonable(value: Any) -> Any:
    """The decoded document as OPA reads it back from JSON."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for (_, key), val in value.items():
            text = _key_string(key)
            if text is None:
                raise YamlError(f"unsupported map key of type: {type(key).__name__}")
            out[text] = _jsonable(val)
        return out
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return _json_number(go_json_float(value))
    return value


def yaml_to_value(text: str) -> Any:
    """The first YAML document of ``text`` as a Rego value, the way OPA converts it."""
    node = first_document(text)
    if node is None:
        return None
    return _jsonable(_Decoder().decode(node))


_KNOWN_TAGS = frozenset(
    {_PLAIN_TAG, "!"}
    | {_LONG_PREFIX + name for name in ("str", "seq", "map", "int", "float", "bool", "null")}
    | {_LONG_PREFIX + name for name in ("timestamp", "binary", "merge")}
)


def _refuse_tags(root: yaml.Node) -> None:
    """Raise :class:`DocumentError` at the first node with an application tag (``!foo``)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag not in _KNOWN_TAGS:
            line = node.start_mark.line + 1
            raise DocumentError(f"YAML tag {_short_tag(node.tag)} is not supported", line)
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)


def load_yaml_document(raw: bytes | str) -> Any:
    """A YAML data document or input as OPA reads it (its first document), within
    the nesting and alias limits of :mod:`engine.inputs.loaders.limits`.

    Raises :class:`yaml.YAMLError` for invalid YAML and :class:`DocumentError` for
    a document refused by the limits, one with an application tag, or one OPA
    cannot convert (``.inf``, ``.nan``, a merge of a scalar).
    """
    check_yaml_stream(raw)
    loader = _Loader(raw)
    node: yaml.Node | None = None
    try:
        while loader.check_node():  # the rest of the stream must parse too
            later = loader.get_node()
            node = later if node is None else node
    finally:
        loader.dispose()
    if node is None:
        return None
    if has_anchor(raw.encode() if isinstance(raw, str) else raw):
        check_yaml_node(node)  # without aliases, the stream check has bounded the depth
    _refuse_tags(node)
    try:
        return _jsonable(_Decoder().decode(node))
    except YamlError as err:
        raise DocumentError(str(err)) from None
