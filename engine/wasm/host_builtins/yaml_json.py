"""YAML builtins: ``yaml.marshal``, ``yaml.unmarshal``, ``yaml.is_valid``.

OPA v1.22 converts YAML with go-yaml v3 (``internal/yaml``): reading is shared
with OPA's loader of data documents and inputs (:mod:`engine.core.go_yaml`);
output is written here following go-yaml's emitter at two-space indentation
with keys in go-yaml's natural order.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from decimal import Decimal
from typing import Any

import yaml

from engine.core.go_yaml import (
    FLOAT,
    STR,
    YamlError,
    first_document,
    go_format_g,
    resolve,
    yaml_to_value,
)
from engine.wasm.host_builtins.encoding import go_json_string, json_key
from engine.wasm.host_builtins.registry import BuiltinError, register
from engine.wasm.values import Set, Value, type_name

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
    plain_ok = rtag == STR and not (_is_base60_float(s) or s in _OLD_BOOLS)
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
    raise YamlError(f"cannot marshal {type(value).__name__}")


def _number_as_yaml(text: str) -> Any:
    """What go-yaml reads from a JSON number's text (an int, a float, or a string)."""
    tag, val = resolve("", text)
    return _Float(val) if tag == FLOAT else val


_YAML_READER_REJECTS = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")


def _json_string_as_yaml(s: str) -> str:
    """A string after go-yaml reads it back from Go's JSON encoding of it.

    The YAML reader rejects some characters JSON leaves unescaped (DEL, C1
    controls, U+FFFE/U+FFFF), and folds NEL (U+0085) like a line break.
    """
    if _YAML_READER_REJECTS.search(s):
        raise YamlError("control characters are not allowed")
    if "\x85" in s:
        node = first_document(go_json_string(s))
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
            raise YamlError("json: unsupported value")
        return _number_as_yaml(repr(value))
    if isinstance(value, Decimal):
        return _number_as_yaml(str(value))
    if isinstance(value, (list, tuple, Set)):
        return [_to_yaml_model(v) for v in value]
    if isinstance(value, dict):
        return {_json_string_as_yaml(json_key(k)): _to_yaml_model(v) for k, v in value.items()}
    raise YamlError(f"cannot marshal {type(value).__name__}")


@register("yaml.marshal")
def yaml_marshal(x: Value) -> str:
    """YAML text of a value as OPA writes it (go-yaml v3, two-space indent)."""
    try:
        return _Emitter().document(_to_yaml_model(x))
    except YamlError as err:
        raise BuiltinError(f"yaml.marshal: {err}") from None


@register("yaml.unmarshal")
def yaml_unmarshal(x: Value) -> Value:
    """Parse YAML text (the first document) into a value."""
    if not isinstance(x, str):
        raise BuiltinError(f"yaml.unmarshal: operand 1 must be string but got {type_name(x)}")
    try:
        return yaml_to_value(x)
    except (YamlError, RecursionError) as err:
        raise BuiltinError(f"yaml.unmarshal: {err}") from None


@register("yaml.is_valid")
def yaml_is_valid(x: Value) -> bool:
    """Whether a string holds YAML that ``yaml.unmarshal`` accepts."""
    if not isinstance(x, str):
        return False
    try:
        yaml_to_value(x)
    except (YamlError, RecursionError):
        return False
    return True
