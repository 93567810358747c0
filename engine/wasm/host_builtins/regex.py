"""Regular-expression builtins with Go ``regexp`` (RE2) semantics.

Patterns are compiled with google-re2 on UTF-8 bytes, so match positions are
byte offsets as in Go. Go's iteration rules (which empty matches are reported,
how ``Split`` and ``ReplaceAllString`` treat them, ``$name`` expansion) are
reimplemented here rather than taken from the ``re2`` module's ``re``-style API.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

import re2

from engine.wasm.host_builtins.registry import BuiltinError, current_context, register

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False


def _group_names(pattern: str) -> list[str]:
    r"""Names of the capturing groups in order ("" when unnamed); index 0 is the whole match.

    Also rejects what Go rejects and RE2 accepts: ``\C`` and non-ASCII group names.
    """
    names = [""]
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            nxt = pattern[i + 1] if i + 1 < n else ""
            if nxt == "C":
                raise ValueError(r"invalid escape sequence: \C")
            if nxt == "Q" and not in_class:
                end = pattern.find("\\E", i + 2)
                i = n if end < 0 else end + 2
                continue
            i += 2
        elif in_class:
            if pattern.startswith("[:", i) and (end := pattern.find(":]", i + 2)) >= 0:
                i = end + 2
                continue
            if ch == "]":
                in_class = False
            i += 1
        elif ch == "[":
            in_class = True
            i += 1
            if pattern.startswith("^", i):
                i += 1
            if pattern.startswith("]", i):
                i += 1
        elif ch == "(":
            if pattern.startswith("(?P<", i) or pattern.startswith("(?<", i):
                start = pattern.index("<", i) + 1
                end = pattern.find(">", start)
                name = pattern[start:end] if end >= 0 else ""
                if not name or not all(c == "_" or (c.isascii() and c.isalnum()) for c in name):
                    raise ValueError(f"invalid named capture {name!r}")
                names.append(name)
                i = end + 1
                continue
            if not pattern.startswith("(?", i):
                names.append("")
            i += 1
        else:
            i += 1
    return names


class _Program:
    """A compiled pattern with Go's view of its capturing groups."""

    __slots__ = ("names", "regexp")

    def __init__(self, pattern: str) -> None:
        names = _group_names(pattern)
        self.regexp = re2.compile(pattern.encode("utf-8"), _OPTIONS)
        if len(names) != self.regexp.groups + 1:  # pragma: no cover - scanner disagreement
            names = [""] * (self.regexp.groups + 1)
            for key, index in self.regexp.groupindex.items():
                names[index] = key.decode("utf-8")
        self.names = names

    def search(self, data: bytes, pos: int = 0) -> Any:
        return self.regexp.search(data, pos)


@functools.lru_cache(maxsize=256)
def _compile(pattern: str) -> _Program:
    return _Program(pattern)


def compile_pattern(name: str, pattern: Any) -> _Program:
    """The compiled RE2 program for ``pattern``; a builtin error when it is invalid."""
    if not isinstance(pattern, str):
        raise BuiltinError(f"{name}: operand 1 must be string")
    try:
        return _compile(pattern)
    except (re2.error, ValueError) as exc:
        raise BuiltinError(f"{name}: error parsing regexp: {exc}") from None


def _string(name: str, value: Any, pos: int) -> str:
    if not isinstance(value, str):
        raise BuiltinError(f"{name}: operand {pos} must be string")
    return value


def _rune_width(data: bytes, pos: int) -> int:
    """Bytes taken by the UTF-8 sequence starting at ``pos`` (1 at the end, like Go)."""
    if pos >= len(data):
        return 1
    b = data[pos]
    if b < 0x80:
        return 1
    if b >= 0xF0:
        return 4
    if b >= 0xE0:
        return 3
    return 2


def find_all(prog: _Program, data: bytes, n: int) -> list[Any]:
    """Matches as Go's ``FindAll*`` reports them: at most ``n`` (all when ``n < 0``).

    An empty match immediately after the previous match is not reported.
    """
    if n < 0:
        n = len(data) + 1
    out: list[Any] = []
    pos, prev_end, end = 0, -1, len(data)
    while len(out) < n and pos <= end:
        m = prog.search(data, pos)
        if m is None:
            break
        start, stop = m.span()
        accept = True
        if stop == pos:
            if start == prev_end:
                accept = False
            pos += _rune_width(data, pos)
        else:
            pos = stop
        prev_end = stop
        if accept:
            out.append(m)
    return out


@register("regex.find_n")
def find_n(pattern: Any, value: Any, number: Any) -> list[str]:
    """Up to ``number`` matches of ``pattern`` in ``value`` (all when negative)."""
    name = "regex.find_n"
    prog = compile_pattern(name, pattern)
    text = _string(name, value, 2)
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise BuiltinError(f"{name}: operand 3 must be number")
    if isinstance(number, float):
        if not number.is_integer():
            raise BuiltinError(f"{name}: operand 3 must be integer number")
        number = int(number)
    if not -(2**63) <= number < 2**63:
        raise BuiltinError(f"{name}: operand 3 must be integer number")
    if number == 0:
        return []
    data = text.encode("utf-8")
    return [m.group().decode("utf-8") for m in find_all(prog, data, number)]


@register("regex.split")
def split(pattern: Any, value: Any) -> list[str]:
    """``value`` split around the matches of ``pattern`` (Go's ``Split(s, -1)``)."""
    name = "regex.split"
    prog = compile_pattern(name, pattern)
    text = _string(name, value, 2)
    if pattern and not text:
        return [""]
    data = text.encode("utf-8")
    pieces: list[bytes] = []
    beg = end = 0
    for m in find_all(prog, data, -1):
        start, stop = m.span()
        end = start
        if stop != 0:
            pieces.append(data[beg:end])
        beg = stop
    if end != len(data):
        pieces.append(data[beg:])
    return [p.decode("utf-8") for p in pieces]


def _is_name_char(ch: str) -> bool:
    return ch == "_" or unicodedata.category(ch)[0] == "L" or unicodedata.category(ch) == "Nd"


def _expand(template: str, prog: _Program, match: Any, data: bytes) -> str:
    """Go's ``Regexp.Expand``: ``$n``, ``${n}``, ``$name``, ``${name}`` and ``$$``."""
    out: list[str] = []
    rest = template
    while True:
        i = rest.find("$")
        if i < 0:
            break
        out.append(rest[:i])
        rest = rest[i + 1 :]
        if rest.startswith("$"):
            out.append("$")
            rest = rest[1:]
            continue
        parsed = _extract(rest)
        if parsed is None:
            out.append("$")
            continue
        ref, num, rest = parsed
        if num >= 0:
            candidates = [num] if num < len(prog.names) else []
        else:
            candidates = [i for i, name in enumerate(prog.names) if name == ref]
        for index in candidates:
            start, stop = match.span(index)
            if start >= 0:
                out.append(data[start:stop].decode("utf-8"))
                break
    out.append(rest)
    return "".join(out)


def _extract(text: str) -> tuple[str, int, str] | None:
    """Parse the reference after a ``$``: (name, number or -1, remaining template)."""
    if not text:
        return None
    brace = text[0] == "{"
    if brace:
        text = text[1:]
    i = 0
    while i < len(text) and _is_name_char(text[i]):
        i += 1
    if i == 0:
        return None
    ref = text[:i]
    if brace:
        if i >= len(text) or text[i] != "}":
            return None
        i += 1
    num = 0
    for ch in ref:
        if not "0" <= ch <= "9" or num >= 100_000_000:
            num = -1
            break
        num = num * 10 + ord(ch) - 48
    if ref[0] == "0" and len(ref) > 1:
        num = -1
    return ref, num, text[i:]


@register("regex.replace")
def replace(value: Any, pattern: Any, replacement: Any) -> str:
    """``value`` with every match of ``pattern`` replaced (Go's ``ReplaceAllString``)."""
    name = "regex.replace"
    text = _string(name, value, 1)
    if not isinstance(pattern, str):
        raise BuiltinError(f"{name}: operand 2 must be string")
    repl = _string(name, replacement, 3)
    prog = compile_pattern(name, pattern)
    data = text.encode("utf-8")
    out: list[str] = []
    last = 0
    size = 0
    context = current_context()
    for m in find_all(prog, data, -1):
        start, stop = m.span()
        out.append(data[last:start].decode("utf-8"))
        out.append(_expand(repl, prog, m, data))
        size += start - last + len(out[-1])
        last = stop
        context.check_result_bytes(size)  # a replacement may multiply the text's size
        if len(out) % 4096 == 0:
            context.check_time()
    out.append(data[last:].decode("utf-8"))
    return "".join(out)


def _template_regex(template: str, start: str, end: str) -> str:
    """The anchored pattern for a template with ``start``…``end`` delimited regexes."""
    level = idx = 0
    bounds: list[tuple[int, int]] = []
    for i, ch in enumerate(template):
        if ch == start:
            level += 1
            if level == 1:
                idx = i
        elif ch == end:
            level -= 1
            if level == 0:
                bounds.append((idx, i + 1))
            elif level < 0:
                raise BuiltinError(f"regex.template_match: unbalanced braces in {template!r}")
    if level != 0:
        raise BuiltinError(f"regex.template_match: unbalanced braces in {template!r}")
    parts = ["^"]
    pos = 0
    for lo, hi in bounds:
        inner = template[lo + 1 : hi - 1]
        parts.append(_quote_meta(template[pos:lo]))
        parts.append(f"({inner})")
        compile_pattern("regex.template_match", f"^{inner}$")
        pos = hi
    parts.append(_quote_meta(template[pos:]))
    parts.append("$")
    return "".join(parts)


_SPECIAL = frozenset("\\.+*?()|[]{}^$")


def _quote_meta(text: str) -> str:
    """Go's ``regexp.QuoteMeta``."""
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)


@register("regex.template_match")
def template_match(template: Any, value: Any, start: Any, end: Any) -> bool:
    """Whether ``value`` matches ``template``, whose regexes sit between the delimiters."""
    name = "regex.template_match"
    tpl = _string(name, template, 1)
    text = _string(name, value, 2)
    delim_start = _string(name, start, 3)
    delim_end = _string(name, end, 4)
    if len(delim_start.encode("utf-8")) != 1:
        raise BuiltinError(f"{name}: start delimiter has to be exactly one character long")
    if len(delim_end.encode("utf-8")) != 1:
        raise BuiltinError(f"{name}: end delimiter has to be exactly one character long")
    prog = compile_pattern(name, _template_regex(tpl, delim_start, delim_end))
    return prog.search(text.encode("utf-8")) is not None


# ---------------------------------------------------------------- glob intersection
#
# regex.globs_match follows OPA's glob-intersection algorithm: globs made of
# characters, ``.`` (any character), ``[...]`` sets, each optionally followed
# by ``+`` or ``*``; ``\`` escapes. The algorithm is heuristic, so it is
# reproduced step by step rather than replaced by an exact automaton product.

_CHAR, _DOT, _SET = 0, 1, 2
_NONE, _PLUS, _STAR = 0, 1, 2


class _Token:
    __slots__ = ("flag", "kind", "value")

    def __init__(self, kind: int, value: Any = None) -> None:
        self.kind = kind
        self.value = value  # the character, or the frozenset of a set
        self.flag = _NONE

    def same(self, other: _Token) -> bool:
        return self.kind == other.kind and (self.kind == _DOT or self.value == other.value)


class _GlobError(Exception):
    pass


def _next_rune(text: str, i: int) -> tuple[int, str, bool] | None:
    """(next index, character, escaped), or None at the end of input."""
    if i >= len(text):
        return None
    if text[i] == "\\":
        if i == len(text) - 1:
            raise _GlobError("input ends with a \\ (escape) character")
        return i + 2, text[i + 1], True
    return i + 1, text[i], False


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while True:
        r = _next_rune(text, i)
        if r is None:
            return _simplify(tokens)
        i, ch, escaped = r
        if escaped:
            token = _Token(_CHAR, ch)
        elif ch == ".":
            token = _Token(_DOT)
        elif ch == "]":
            raise _GlobError("set-close ']' with no preceding '['")
        elif ch == "[":
            i, token = _tokenize_set(text, i)
        elif ch in "+*":
            raise _GlobError(f"flag {ch!r} must be preceded by a non-flag")
        else:
            token = _Token(_CHAR, ch)
        f = _next_rune(text, i)
        if f is not None and not f[2] and f[1] in "+*":
            token.flag = _PLUS if f[1] == "+" else _STAR
            i = f[0]
        tokens.append(token)


def _tokenize_set(text: str, i: int) -> tuple[int, _Token]:
    chars: set[str] = set()
    prev = ""
    has_prev = False
    while True:
        r = _next_rune(text, i)
        if r is None:
            raise _GlobError("found [ without matching ]")
        i, ch, escaped = r
        if escaped:
            chars.add(ch)
            prev, has_prev = ch, True
        elif ch == "-":
            if not has_prev:
                raise _GlobError("range character '-' must be preceded by a character")
            if i >= len(text) - 1:
                raise _GlobError("range character '-' must be followed by a character")
            nr = _next_rune(text, i)
            assert nr is not None
            i, hi, hi_escaped = nr
            if not hi_escaped and hi in "]-":
                raise _GlobError("range character '-' cannot be followed by a special symbol")
            if hi < prev:
                raise _GlobError("range is out of order")
            chars.update(chr(c) for c in range(ord(prev), ord(hi) + 1))
            has_prev = False
        elif ch == "]":
            return i, _Token(_SET, frozenset(chars))
        else:
            chars.add(ch)
            prev, has_prev = ch, True


def _simplify(tokens: list[_Token]) -> list[_Token]:
    if not tokens:
        return tokens
    simple = [tokens[0]]
    latest = tokens[0]
    for token in tokens[1:]:
        if token.flag != _NONE and latest.flag != _NONE and token.same(latest):
            plus = _PLUS in (token.flag, latest.flag)
            simple[-1].flag = _PLUS if plus else _STAR
            continue
        latest = token
        simple.append(token)
    return simple


def _match(a: _Token, b: _Token) -> bool:
    if a.kind > b.kind:
        a, b = b, a
    if a.kind == _CHAR:
        if b.kind == _CHAR:
            return a.value == b.value
        if b.kind == _DOT:
            return True
        return a.value in b.value
    if a.kind == _DOT:
        return True
    return not a.value.isdisjoint(b.value)


def _trim(g1: list[_Token], g2: list[_Token]) -> tuple[list[_Token], list[_Token]] | None:
    left = 0
    while left < len(g1) and left < len(g2) and g1[left].flag == _NONE and g2[left].flag == _NONE:
        if not _match(g1[left], g2[left]):
            return None
        left += 1
    if left > 0:
        left -= 1
    r1, r2 = len(g1) - 1, len(g2) - 1
    while (
        r1 >= 0
        and r1 >= left
        and r2 >= 0
        and r2 >= left
        and g1[r1].flag == _NONE
        and g2[r2].flag == _NONE
    ):
        if not _match(g1[r1], g2[r2]):
            return None
        r1, r2 = r1 - 1, r2 - 1
    if r1 < len(g1) - 1:
        r1, r2 = r1 + 1, r2 + 1
    return g1[left : r1 + 1], g2[left : r2 + 1]


def _intersect_normal(g1: list[_Token], g2: list[_Token]) -> bool:
    i = 0
    while i < len(g1) and i < len(g2):
        if g1[i].flag == _NONE and g2[i].flag == _NONE:
            if not _match(g1[i], g2[i]):
                return False
        else:
            return _intersect_special(g1[i:], g2[i:])
        i += 1
    return i == len(g1) and i == len(g2)


def _intersect_special(g1: list[_Token], g2: list[_Token]) -> bool:
    if g1[0].flag != _NONE:
        if g1[0].flag == _PLUS:
            return _intersect_plus(g1, g2)
        return _intersect_star(g1, g2)
    if g2[0].flag == _PLUS:
        return _intersect_plus(g2, g1)
    if g2[0].flag == _STAR:
        return _intersect_star(g2, g1)
    return False


def _intersect_plus(plussed: list[_Token], other: list[_Token]) -> bool:
    if not _match(plussed[0], other[0]):
        return False
    if _intersect_star(plussed, other[1:]):
        return True
    return other[0].flag != _NONE and _intersect_normal(plussed[1:], other)


def _intersect_star(starred: list[_Token], other: list[_Token]) -> bool:
    star = starred[0]
    following = starred[1] if len(starred) > 1 else None
    context = current_context()
    for i, token in enumerate(other):
        context.check_time()  # the search backtracks: exponential in the stars
        if (
            following is not None
            and _match(token, following)
            and _intersect_normal(starred[1:], other[i:])
        ):
            return True
        if not _match(token, star):
            return False
    return following is None


@register("regex.globs_match")
def globs_match(glob1: Any, glob2: Any) -> bool:
    """Whether the languages of two globs (``.``, ``[...]``, ``+``, ``*``) intersect."""
    name = "regex.globs_match"
    a = _string(name, glob1, 1)
    b = _string(name, glob2, 2)
    try:
        g1 = _tokenize(a)
        g2 = _tokenize(b)
    except _GlobError as exc:
        raise BuiltinError(f"{name}: {exc}") from None
    trimmed = _trim(g1, g2)
    if trimmed is None:
        return False
    return _intersect_normal(*trimmed)
