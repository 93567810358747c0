"""YAML builtins: ``yaml.marshal``, ``yaml.unmarshal``, ``yaml.is_valid``.

OPA v1.22 converts YAML with go-yaml v3 (``internal/yaml``): the YAML 1.2 core
schema for resolving plain scalars (``yes``/``on`` stay strings), timestamps
kept as strings, duplicate keys collapsed to the last one, only the first
document of a stream used (the rest must still parse), and output written by
go-yaml's emitter at two-space indentation with keys in go-yaml's natural order.

Parsing uses libyaml (PyYAML's C parser, from which go-yaml's parser was
ported) for the syntax; scalar resolution, merge keys, and emitting are done
here following go-yaml v3.
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
import struct
import unicodedata
from decimal import Decimal
from typing import Any

import yaml

from engine.inputs.loaders.limits import allowed_alias_ratio
from engine.wasm.host_builtins.encoding import go_json_string, json_key
from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.host_builtins.urls import go_string
from engine.wasm.values import Set, Value, parse_number, type_name

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_UINT64_MAX = 2**64 - 1

# ---------------------------------------------------------------- go-yaml v3 resolve


class _YamlError(Exception):
    pass


_NULL, _BOOL, _STR, _INT, _FLOAT, _TIMESTAMP, _MERGE, _BINARY = (
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
    (_BOOL, True, ("true", "True", "TRUE")),
    (_BOOL, False, ("false", "False", "FALSE")),
    (_NULL, None, ("", "~", "null", "Null", "NULL")),
    (_FLOAT, math.nan, (".nan", ".NaN", ".NAN")),
    (_FLOAT, math.inf, (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")),
    (_FLOAT, -math.inf, ("-.inf", "-.Inf", "-.INF")),
    (_MERGE, "<<", ("<<",)),
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
        raise _YamlError(f"cannot decode !!str `{s}` as a !!timestamp")
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
    if tag not in ("", _STR, _BOOL, _INT, _FLOAT, _NULL, _TIMESTAMP):
        return tag, s
    rtag, out = _resolve_untyped(tag, s)
    if tag in ("", rtag, _STR, _BINARY):
        return rtag, out
    if tag == _FLOAT and rtag == _INT:
        return _FLOAT, float(out)
    raise _YamlError(f"cannot decode {rtag} `{s}` as a {tag}")


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
        return _STR, s
    if tag in (_STR, _BINARY):
        return _STR, s
    if s in _RESOLVE_MAP:
        return _RESOLVE_MAP[s]
    if hint == "." and _DOT_FLOAT.fullmatch(s):
        f = _go_parse_float(s)
        if f is not None:
            return _FLOAT, f
    elif hint in ("D", "S"):
        if tag in ("", _TIMESTAMP) and _is_timestamp(s):
            return _TIMESTAMP, s
        plain = s.replace("_", "")
        n = _go_parse_int(plain, 0)
        if n is None and plain.isascii():
            n = _go_parse_int(plain, 0, unsigned=True)
        if n is not None:
            return _INT, n
        if _YAML_STYLE_FLOAT.fullmatch(plain):
            f = _go_parse_float(plain)
            if f is not None:
                return _FLOAT, f
        for prefix, base in (("0b", 2), ("-0b", 2), ("0o", 8), ("-0o", 8)):
            if plain.startswith(prefix):
                digits = plain[len(prefix) :]
                if prefix.startswith("-"):
                    digits = "-" + digits
                n = _go_parse_int(digits, base)
                if n is None and not prefix.startswith("-"):
                    n = _go_parse_int(digits, base, unsigned=True)
                if n is not None:
                    return _INT, n
                break
    return _STR, s


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


def _float32_shortest(f: float) -> str:
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
        raise _YamlError("json: unsupported value")
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


# ---------------------------------------------------------------- go-yaml v3 emitter

_BREAKS = "\r\n\x85\u2028\u2029"


def _is_printable(ch: str) -> bool:
    cp = ord(ch)
    return (
        cp == 0x0A
        or 0x20 <= cp <= 0x7E
        or 0xA0 <= cp <= 0xD7FF
        or (0xE000 <= cp <= 0xFFFD and cp != 0xFEFF)
    )


class _Analysis:
    __slots__ = ("block_allowed", "block_plain", "flow_plain", "multiline", "single_allowed")

    def __init__(self, value: str) -> None:
        if not value:
            self.multiline = False
            self.flow_plain = False
            self.block_plain = True
            self.single_allowed = True
            self.block_allowed = False
            return
        block_ind = flow_ind = line_breaks = special = tabs = False
        leading_space = leading_break = trailing_space = trailing_break = False
        break_space = space_break = False
        previous_space = previous_break = False
        if value.startswith(("---", "...")):
            block_ind = flow_ind = True
        preceded_by_ws = True
        n = len(value)
        for i, ch in enumerate(value):
            followed_by_ws = i + 1 >= n or value[i + 1] in " \t"
            if i == 0:
                if ch in "#,[]{}&*!|>'\"%@`":
                    flow_ind = block_ind = True
                elif ch in "?:":
                    flow_ind = True
                    if followed_by_ws:
                        block_ind = True
                elif ch == "-" and followed_by_ws:
                    flow_ind = block_ind = True
            elif ch in ",?[]{}":
                flow_ind = True
            elif ch == ":":
                flow_ind = True
                if followed_by_ws:
                    block_ind = True
            elif ch == "#" and preceded_by_ws:
                flow_ind = block_ind = True
            if ch == "\t":
                tabs = True
            elif not _is_printable(ch):
                special = True
            if ch == " ":
                if i == 0:
                    leading_space = True
                if i == n - 1:
                    trailing_space = True
                if previous_break:
                    break_space = True
                previous_space, previous_break = True, False
            elif ch in _BREAKS:
                line_breaks = True
                if i == 0:
                    leading_break = True
                if i == n - 1:
                    trailing_break = True
                if previous_space:
                    space_break = True
                previous_space, previous_break = False, True
            else:
                previous_space = previous_break = False
            preceded_by_ws = ch in " \t\x00" or ch in _BREAKS
        self.multiline = line_breaks
        self.flow_plain = self.block_plain = self.single_allowed = self.block_allowed = True
        if leading_space or leading_break or trailing_space or trailing_break:
            self.flow_plain = self.block_plain = False
        if trailing_space:
            self.block_allowed = False
        if break_space or space_break or tabs or special:
            self.flow_plain = self.block_plain = self.single_allowed = False
        if space_break or special:
            self.block_allowed = False
        if line_breaks:
            self.flow_plain = self.block_plain = False
        if flow_ind:
            self.flow_plain = False
        if block_ind:
            self.block_plain = False


_PLAIN, _SINGLE, _DOUBLE, _LITERAL = "plain", "single", "double", "literal"

_DQ_ESCAPES = {
    0x00: "0",
    0x07: "a",
    0x08: "b",
    0x09: "t",
    0x0A: "n",
    0x0B: "v",
    0x0C: "f",
    0x0D: "r",
    0x1B: "e",
    0x22: '"',
    0x5C: "\\",
    0x85: "N",
    0xA0: "_",
    0x2028: "L",
    0x2029: "P",
}


class _Emitter:
    """go-yaml v3's block emitter (best_indent 2, no line folding) for JSON-like values."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.indent = -1
        self.indents: list[int] = []
        self.simple_key = False

    # -- low-level writers
    def put(self, ch: str) -> None:
        self.out.append(ch)
        self.column += 1

    def put_break(self) -> None:
        self.out.append("\n")
        self.column = 0
        self.indention = True

    def write_break(self, ch: str) -> None:
        if ch == "\n":
            self.put_break()
        else:
            self.out.append(ch)
            self.column = 0
            self.indention = True

    def write_indent(self) -> None:
        indent = max(self.indent, 0)
        if (
            not self.indention
            or self.column > indent
            or (self.column == indent and not self.whitespace)
        ):
            self.put_break()
        while self.column < indent:
            self.put(" ")
        self.whitespace = True

    def write_indicator(self, text: str, need_ws: bool, is_ws: bool, is_indention: bool) -> None:
        if need_ws and not self.whitespace:
            self.put(" ")
        for ch in text:
            self.put(ch)
        self.whitespace = is_ws
        self.indention = self.indention and is_indention

    def increase_indent(self, flow: bool) -> None:
        # go-yaml adds 2 inside a sequence item and rounds up to the next
        # multiple of the indent elsewhere: with an indent of 2, always +2.
        self.indents.append(self.indent)
        if self.indent < 0:
            self.indent = 2 if flow else 0
        else:
            self.indent += 2

    # -- nodes
    def node(self, value: Any, *, simple_key: bool = False) -> None:
        self.simple_key = simple_key
        if isinstance(value, list):
            if not value:
                self.empty_flow("[", "]")
            else:
                self.block_sequence(value)
        elif isinstance(value, dict):
            if not value:
                self.empty_flow("{", "}")
            else:
                self.block_mapping(value)
        else:
            text, style = _scalar_text(value)
            self.scalar(text, style, _Analysis(text))

    def empty_flow(self, open_: str, close: str) -> None:
        self.write_indicator(open_, True, True, False)
        if self.column == 0:
            self.write_indent()
        self.write_indicator(close, False, False, False)

    def block_sequence(self, items: list[Any]) -> None:
        self.increase_indent(False)
        for item in items:
            self.write_indent()
            self.write_indicator("-", True, False, True)
            self.node(item)
        self.indent = self.indents.pop()

    def block_mapping(self, mapping: dict[str, Any]) -> None:
        self.increase_indent(False)
        for key in sorted(mapping, key=_YAML_KEY_ORDER):
            value = mapping[key]
            self.write_indent()
            analysis = _Analysis(key)
            key_style = _string_style(key)
            if not analysis.multiline and len(key.encode("utf-8")) <= 128:
                self.simple_key = True
                self.scalar(key, key_style, analysis)
                self.write_indicator(":", False, False, False)
            else:
                self.write_indicator("?", True, False, True)
                self.simple_key = False
                self.scalar(key, key_style, analysis)
                self.write_indent()
                self.write_indicator(":", True, False, True)
            self.node(value)
        self.indent = self.indents.pop()

    def scalar(self, text: str, style: str, analysis: _Analysis) -> None:
        if self.simple_key and analysis.multiline:
            style = _DOUBLE
        if style == _PLAIN:
            # Scalars are only written in block context (collections in flow
            # style are always empty).
            if not analysis.block_plain:
                style = _SINGLE
            if not text and self.simple_key:
                style = _SINGLE
        if style == _SINGLE and not analysis.single_allowed:
            style = _DOUBLE
        if style == _LITERAL and (not analysis.block_allowed or self.simple_key):
            style = _DOUBLE
        self.increase_indent(True)
        if style == _PLAIN:
            if text and not self.whitespace:
                self.put(" ")
            for ch in text:
                self.put(ch)
            if text:
                self.whitespace = False
            self.indention = False
        elif style == _SINGLE:
            self.write_single(text)
        elif style == _DOUBLE:
            self.write_double(text)
        else:
            self.write_literal(text)
        self.indent = self.indents.pop()

    def write_single(self, text: str) -> None:
        self.write_indicator("'", True, False, False)
        breaks = False
        for ch in text:
            if ch == " ":
                self.put(ch)
            elif ch in _BREAKS:
                if not breaks and ch == "\n":
                    self.put_break()
                self.write_break(ch)
                breaks = True
            else:
                if breaks:
                    self.write_indent()
                if ch == "'":
                    self.put("'")
                self.put(ch)
                self.indention = False
                breaks = False
        self.write_indicator("'", False, False, False)
        self.whitespace = False
        self.indention = False

    def write_double(self, text: str) -> None:
        self.write_indicator('"', True, False, False)
        # go-yaml's is_bom looks at the first character of the value, so a
        # value starting with U+FEFF has every character escaped.
        escape_all = text.startswith("\ufeff")
        for ch in text:
            cp = ord(ch)
            if escape_all or not _is_printable(ch) or ch in _BREAKS or ch in '"\\':
                esc = _DQ_ESCAPES.get(cp)
                if esc is None:
                    if cp <= 0xFF:
                        esc = f"x{cp:02X}"
                    elif cp <= 0xFFFF:
                        esc = f"u{cp:04X}"
                    else:
                        esc = f"U{cp:08X}"
                self.put("\\")
                for c in esc:
                    self.put(c)
            else:
                self.put(ch)
        self.write_indicator('"', False, False, False)
        self.whitespace = False
        self.indention = False

    def write_literal(self, text: str) -> None:
        self.write_indicator("|", True, False, False)
        if text[:1] == " " or (text[:1] in _BREAKS and text):
            self.write_indicator("2", False, False, False)
        chomp = ""
        if not text or text[-1] not in _BREAKS:
            chomp = "-"
        elif len(text) == 1 or text[-2] in _BREAKS:
            chomp = "+"
        if chomp:
            self.write_indicator(chomp, False, False, False)
        self.put_break()
        self.whitespace = True
        breaks = True
        for ch in text:
            if ch in _BREAKS:
                self.write_break(ch)
                breaks = True
            else:
                if breaks:
                    self.write_indent()
                self.put(ch)
                self.indention = False
                breaks = False

    def document(self, value: Any) -> str:
        self.node(value)
        self.indent = -1
        self.write_indent()
        return "".join(self.out)


def _is_go_digit(ch: str) -> bool:
    return unicodedata.category(ch) == "Nd"


def _yaml_key_less(a: str, b: str) -> bool:
    """go-yaml v3's ``keyList.Less`` for two string keys (a natural order)."""
    digits = False
    for i in range(min(len(a), len(b))):
        ca, cb = a[i], b[i]
        if ca == cb:
            digits = _is_go_digit(ca)
            continue
        al, bl = ca.isalpha(), cb.isalpha()
        if al and bl:
            return ca < cb
        if al or bl:
            return al if digits else bl
        an = bn = 0
        if ca == "0" or cb == "0":
            j = i - 1
            while j >= 0 and _is_go_digit(a[j]):
                if a[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and _is_go_digit(a[ai]):
            an = an * 10 + ord(a[ai]) - 48
            ai += 1
        bi = i
        while bi < len(b) and _is_go_digit(b[bi]):
            bn = bn * 10 + ord(b[bi]) - 48
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ca < cb
    return len(a) < len(b)


def _yaml_key_cmp(a: str, b: str) -> int:
    if _yaml_key_less(a, b):
        return -1
    if _yaml_key_less(b, a):
        return 1
    return 0


_YAML_KEY_ORDER = functools.cmp_to_key(_yaml_key_cmp)


def _string_style(s: str) -> str:
    """The style go-yaml v3's encoder asks for when writing a string."""
    if "\n" in s:
        return _LITERAL
    rtag, _ = resolve("", s)
    plain_ok = rtag == _STR and not (_is_base60_float(s) or s in _OLD_BOOLS)
    return _PLAIN if plain_ok else _DOUBLE


_OLD_BOOLS = frozenset(
    (
        *("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"),
        *("n", "N", "no", "No", "NO", "off", "Off", "OFF"),
    )
)
_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")


def _is_base60_float(s: str) -> bool:
    if not s or not (s[0] in "+-" or "0" <= s[0] <= "9") or ":" not in s:
        return False
    return _BASE60_FLOAT.fullmatch(s) is not None


class _Float:
    """A float64 going through the emitter (written with Go's %g)."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value


def _scalar_text(value: Any) -> tuple[str, str]:
    if value is None:
        return "null", _PLAIN
    if value is True:
        return "true", _PLAIN
    if value is False:
        return "false", _PLAIN
    if isinstance(value, int):
        return str(value), _PLAIN
    if isinstance(value, _Float):
        f = value.value
        if math.isnan(f):
            return ".nan", _PLAIN
        if math.isinf(f):
            return (".inf" if f > 0 else "-.inf"), _PLAIN
        return go_format_g(f), _PLAIN
    if isinstance(value, str):
        return value, _string_style(value)
    raise _YamlError(f"cannot marshal {type(value).__name__}")


def _number_as_yaml(text: str) -> Any:
    """What go-yaml reads from a JSON number's text (an int, a float, or a string)."""
    tag, val = resolve("", text)
    return _Float(val) if tag == _FLOAT else val


_YAML_READER_REJECTS = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")


def _json_string_as_yaml(s: str) -> str:
    """A string after go-yaml reads it back from Go's JSON encoding of it.

    The YAML reader rejects some characters JSON leaves unescaped (DEL, C1
    controls, U+FFFE/U+FFFF), and folds NEL (U+0085) like a line break.
    """
    if _YAML_READER_REJECTS.search(s):
        raise _YamlError("control characters are not allowed")
    if "\x85" in s:
        node = _first_document(go_json_string(s))
        assert isinstance(node, yaml.ScalarNode)
        return str(node.value)
    return s


def _to_yaml_model(value: Value) -> Any:
    """A Rego value as go-yaml sees it after OPA's JSON round trip."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _json_string_as_yaml(value)
    if isinstance(value, int):
        return _number_as_yaml(str(value))
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise _YamlError("json: unsupported value")
        return _number_as_yaml(repr(value))
    if isinstance(value, Decimal):
        return _number_as_yaml(str(value))
    if isinstance(value, (list, tuple, Set)):
        return [_to_yaml_model(v) for v in value]
    if isinstance(value, dict):
        return {_json_string_as_yaml(json_key(k)): _to_yaml_model(v) for k, v in value.items()}
    raise _YamlError(f"cannot marshal {type(value).__name__}")


@register("yaml.marshal")
def yaml_marshal(x: Value) -> str:
    """YAML text of a value as OPA writes it (go-yaml v3, two-space indent)."""
    try:
        return _Emitter().document(_to_yaml_model(x))
    except _YamlError as err:
        raise BuiltinError(f"yaml.marshal: {err}") from None


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

    class _Loader(_ParserBase, _Resolver):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            _ParserBase.__init__(self, stream)
            _Resolver.__init__(self)

else:  # pragma: no cover - PyYAML without libyaml

    class _Loader(  # type: ignore[no-redef]
        yaml.reader.Reader,
        yaml.scanner.Scanner,
        yaml.parser.Parser,
        yaml.composer.Composer,
        _Resolver,
    ):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            _Resolver.__init__(self)


def _short_tag(tag: str) -> str:
    if tag.startswith(_LONG_PREFIX):
        return "!!" + tag[len(_LONG_PREFIX) :]
    return tag


def _first_document(text: str) -> yaml.Node | None:
    """The first document of a stream, after checking that the whole stream parses."""
    loader = _Loader(text)
    first: yaml.Node | None = None
    try:
        while loader.check_node():
            node = loader.get_node()
            if first is None:
                first = node
    except yaml.YAMLError as err:
        raise _YamlError(str(err).replace("\n", " ")) from None
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
        text = _float32_shortest(value)
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
                raise _YamlError("document contains excessive aliasing")
        self.seen.add(id(node))

    def decode(self, node: yaml.Node) -> Any:
        if id(node) in self.active:
            raise _YamlError("anchor value contains itself")
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
            if rtag == _TIMESTAMP:
                return text
            if rtag == _MERGE:
                return text
            return value
        short = _short_tag(tag)
        if short == _BINARY:
            try:
                data = text.replace("\n", "").replace("\r", "")
                return go_string(base64.b64decode(data, validate=True))
            except (binascii.Error, ValueError) as err:
                raise _YamlError(f"!!binary value contains invalid base64 data: {err}") from None
        if short == _TIMESTAMP:
            return _timestamp_json(text)
        if short == "!":
            return text
        rtag, value = resolve(short, text)
        if rtag == _TIMESTAMP:
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
            except _YamlError:
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
            raise _YamlError("map merge requires map or sequence of maps as the value")
        pairs = self._normalize(node)
        merge_node = None
        for key_node, value_node in pairs:
            if _is_merge_key(key_node):
                merge_node = value_node
                continue
            key = self.decode(key_node)
            if isinstance(key, (list, dict)):
                raise _YamlError("invalid map key")
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


def _jsonable(value: Any) -> Value:
    """The decoded document as OPA reads it back from JSON."""
    if isinstance(value, dict):
        out: dict[str, Value] = {}
        for (_, key), val in value.items():
            text = _key_string(key)
            if text is None:
                raise _YamlError(f"unsupported map key of type: {type(key).__name__}")
            out[text] = _jsonable(val)
        return out
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return parse_number(go_json_float(value))
    return value


def yaml_to_value(text: str) -> Value:
    """The first YAML document of ``text`` as a Rego value, the way OPA converts it."""
    node = _first_document(text)
    if node is None:
        return None
    return _jsonable(_Decoder().decode(node))


@register("yaml.unmarshal")
def yaml_unmarshal(x: Value) -> Value:
    """Parse YAML text (the first document) into a value."""
    if not isinstance(x, str):
        raise BuiltinError(f"yaml.unmarshal: operand 1 must be string but got {type_name(x)}")
    try:
        return yaml_to_value(x)
    except (_YamlError, RecursionError) as err:
        raise BuiltinError(f"yaml.unmarshal: {err}") from None


@register("yaml.is_valid")
def yaml_is_valid(x: Value) -> bool:
    """Whether a string holds YAML that ``yaml.unmarshal`` accepts."""
    if not isinstance(x, str):
        return False
    try:
        yaml_to_value(x)
    except (_YamlError, RecursionError):
        return False
    return True
